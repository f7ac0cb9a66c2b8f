import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportPhotoListSchema, REPORT_PHOTO_UPLOAD_PATH as TUS } from '@portale/shared/field-work';
import { visitReportPhotos } from '../../db/schema/index.ts';
import { readStored } from '../../lib/file-store.ts';
import type { TestApp } from '../../../test/build-test-app.ts';
import { DEMO_DETECTOR, OTHER_DETECTOR } from '../../../test/field-work-harness.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  fakeJpeg,
  PHOTO_OTHERS,
  PHOTO_QUOTA_MB,
  PHOTO_STAFF,
  photoRig,
  sha256Hex,
  tusCreate,
  tusMetadata,
  tusPatch,
  tusUpload,
  type PhotoRig,
} from '../../../test/photo-upload-harness.ts';

// Issue 39, the photos (decision 055): tus uploads bound to a report's client id and a photo's index,
// resumed after an interruption, landed once in the file store, with quotas and owner checks.

let rig: PhotoRig;
let t: TestApp;
const as = (email: string) => rig.as(email);
const detector = () => rig.detector();
const sentReport = () => rig.sentReport('Visita svolta con le foto del plesso.');

const upload = tusUpload;

const photoRows = (clientReportId: string) =>
  t.database.db.select().from(visitReportPhotos).where(eq(visitReportPhotos.clientReportId, clientReportId));

beforeAll(async () => {
  rig = await photoRig({ phone: '+393330000997', ministryCode: 'FOT0000001', name: 'Plesso foto' });
  t = rig.t;
}, 180_000);
afterAll(() => rig.close());

describe('tus upload of a report photo', () => {
  it('resumes after an interruption: two parts, one photo in the file store, downloaded as sent', async () => {
    const { visitId, clientReportId } = await sentReport();
    const bytes = fakeJpeg(3000);
    const created = await tusCreate(detector(), bytes.length, tusMetadata(clientReportId, 0, bytes));
    expect(created.statusCode).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(new RegExp(`^${TUS}/${clientReportId}_0_[0-9a-f]{32}$`));
    const first = await tusPatch(detector(), location, 0, bytes.subarray(0, 1200));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('1200');
    // The connection dropped: the client asks where to go on from.
    const head = await detector().send('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe('1200');
    expect(await photoRows(clientReportId)).toHaveLength(0);
    // A part sent from a wrong offset is refused.
    expect((await tusPatch(detector(), location, 0, bytes.subarray(0, 10))).statusCode).toBe(409);
    const rest = await tusPatch(detector(), location, 1200, bytes.subarray(1200));
    expect(rest.statusCode).toBe(204);

    const rows = await photoRows(clientReportId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      photoIndex: 0,
      sizeBytes: 3000,
      sha256: sha256Hex(bytes),
      mediaType: 'image/jpeg',
    });
    expect((await readStored(t.app.files, rows[0]!.fileKey!)).equals(bytes)).toBe(true);
    // The upload in progress is gone: a HEAD on it now finds nothing.
    expect(
      (await detector().send('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode,
    ).toBe(404);

    const list = await detector().get(`/api/visits/${visitId}/photos`);
    expect(list.statusCode).toBe(200);
    const { items } = ReportPhotoListSchema.parse(list.json());
    expect(items).toEqual([expect.objectContaining({ clientReportId, index: 0, sizeBytes: 3000 })]);
    const download = await detector().get(`/api/visits/${visitId}/photos/${items[0]!.id}`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.rawPayload.equals(bytes)).toBe(true);
  });

  it('a replayed send makes no duplicate: the same photo again is "già ricevuta", another one at its place is refused', async () => {
    const { clientReportId } = await sentReport();
    const bytes = fakeJpeg(2000);
    expect((await upload(detector(), clientReportId, 0, bytes)).statusCode).toBe(204);
    for (let i = 0; i < 2; i++) {
      const replay = await tusCreate(detector(), bytes.length, tusMetadata(clientReportId, 0, bytes));
      expect(replay.statusCode).toBe(409);
      expect(replay.json()).toMatchObject({
        code: 'photo_already_received',
        message: 'Questa foto è già stata ricevuta.',
      });
    }
    const other = await tusCreate(detector(), 2000, tusMetadata(clientReportId, 0, fakeJpeg(2000)));
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'photo_index_taken' });
    // Two uploads of the same photo started before either ended (two tabs): one row.
    const again = fakeJpeg(1500);
    const a = await tusCreate(detector(), again.length, tusMetadata(clientReportId, 1, again));
    const b = await tusCreate(detector(), again.length, tusMetadata(clientReportId, 1, again));
    expect((await tusPatch(detector(), a.headers.location as string, 0, again)).statusCode).toBe(204);
    expect((await tusPatch(detector(), b.headers.location as string, 0, again)).statusCode).toBe(204);
    expect(await photoRows(clientReportId)).toHaveLength(2);
  });

  it('quotas: a sixth photo, a photo over 5 MB and past the detector quota are refused in Italian, nothing kept', async () => {
    const { clientReportId } = await sentReport();
    const sixth = await tusCreate(detector(), 1000, tusMetadata(clientReportId, 5));
    expect(sixth.statusCode).toBe(422);
    expect(sixth.json()).toMatchObject({ message: 'Al massimo 5 foto per resoconto.' });
    const big = await tusCreate(detector(), 5 * 1024 * 1024 + 1, tusMetadata(clientReportId, 0));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'photo_too_large' });
    const pastQuota = await tusCreate(
      detector(),
      PHOTO_QUOTA_MB * 1024 * 1024 + 1,
      tusMetadata(clientReportId, 0),
    );
    expect(pastQuota.statusCode).toBe(413);
    expect(pastQuota.json()).toMatchObject({
      code: 'photo_quota_exceeded',
      message: 'Hai raggiunto lo spazio massimo per le foto dei tuoi resoconti: contatta lo staff.',
    });
    expect(await photoRows(clientReportId)).toHaveLength(0);
    const bad = await tusCreate(detector(), 1000, 'clientReportId bm90LWEtdXVpZA==,index MA==');
    expect(bad.statusCode).toBe(422);
  });

  it('refuses a file that is not JPEG or PNG by its first bytes, and one whose bytes are not those announced', async () => {
    const { clientReportId } = await sentReport();
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(500)]);
    const refused = await upload(detector(), clientReportId, 0, pdf);
    expect(refused.statusCode).toBe(415);
    expect(JSON.parse(refused.body)).toMatchObject({ message: 'La foto deve essere un file JPEG o PNG.' });
    const announced = fakeJpeg(800);
    const created = await tusCreate(detector(), 800, tusMetadata(clientReportId, 1, announced));
    const damaged = await tusPatch(detector(), created.headers.location as string, 0, fakeJpeg(800));
    expect(damaged.statusCode).toBe(422);
    expect(await photoRows(clientReportId)).toHaveLength(0);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(400),
    ]);
    expect((await upload(detector(), clientReportId, 2, png)).statusCode).toBe(204);
    expect((await photoRows(clientReportId))[0]).toMatchObject({ photoIndex: 2, mediaType: 'image/png' });
  });
});

describe('who may upload and see the photos', () => {
  it('upload: guest 401, a report not yet sent 404, another detector and staff 403 (also on resume)', async () => {
    const { clientReportId } = await sentReport();
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await tusCreate(guest, 1000, tusMetadata(clientReportId, 0))).statusCode).toBe(401);
    const unsent = await tusCreate(detector(), 1000, tusMetadata(randomUUID(), 0));
    expect(unsent.statusCode).toBe(404);
    expect(unsent.json()).toMatchObject({ code: 'report_not_found' });
    for (const email of [OTHER_DETECTOR, ...PHOTO_STAFF, ...PHOTO_OTHERS])
      expect((await tusCreate(as(email), 1000, tusMetadata(clientReportId, 0))).statusCode, email).toBe(403);
    const bytes = fakeJpeg(1000);
    const created = await tusCreate(detector(), bytes.length, tusMetadata(clientReportId, 0, bytes));
    const location = created.headers.location as string;
    expect((await tusPatch(as(OTHER_DETECTOR), location, 0, bytes)).statusCode).toBe(403);
    expect((await guest.send('HEAD', location, { headers: { 'tus-resumable': '1.0.0' } })).statusCode).toBe(
      401,
    );
    expect((await tusPatch(detector(), `${TUS}/not-an-upload`, 0, bytes)).statusCode).toBe(404);
    expect(await photoRows(clientReportId)).toHaveLength(0);
    expect((await tusPatch(detector(), location, 0, bytes)).statusCode).toBe(204);
  });

  it('list and download: the detector and staff who read detectors 200; guest 401; others 403; unknown 404', async () => {
    const { visitId, clientReportId } = await sentReport();
    expect((await upload(detector(), clientReportId, 0, fakeJpeg(700))).statusCode).toBe(204);
    const [row] = await photoRows(clientReportId);
    const list = `/api/visits/${visitId}/photos`;
    const file = `${list}/${row!.id}`;
    for (const email of [DEMO_DETECTOR, ...PHOTO_STAFF]) {
      expect((await as(email).get(list)).statusCode, email).toBe(200);
      expect((await as(email).get(file)).statusCode, email).toBe(200);
    }
    const guest = new ApiClient(t, nextIp());
    expect((await guest.get(list)).statusCode).toBe(401);
    expect((await guest.get(file)).statusCode).toBe(401);
    for (const email of [OTHER_DETECTOR, ...PHOTO_OTHERS]) {
      expect((await as(email).get(list)).statusCode, email).toBe(403);
      expect((await as(email).get(file)).statusCode, email).toBe(403);
    }
    expect((await detector().get(`${list}/999999`)).statusCode).toBe(404);
    expect((await as('sylla@demo.test').get('/api/visits/999999/photos')).statusCode).toBe(404);
  });
});
