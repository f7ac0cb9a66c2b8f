import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportPhotoListSchema, REPORT_PHOTO_UPLOAD_PATH as TUS } from '@portale/shared/field-work';
import { auditLog, outbox, reviews, visitReportPhotos } from '../../db/schema/index.ts';
import { readStored } from '../../lib/file-store.ts';
import type { TestApp } from '../../../test/build-test-app.ts';
import { DEMO_DETECTOR, OTHER_DETECTOR } from '../../../test/field-work-harness.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import * as photoTests from '../../../test/photo-upload-harness.ts';

// Issue 39, decision 055 (amendment): a sent photo is deleted by staff who review, or by its detector
// until the report is reviewed; the file leaves the store and the quota, the audit keeps who and what
// (never the photo), and the tombstone answers a replayed upload "già ricevuta". The tus routes' own
// refusals are the API's error shape, in Italian; each photo received is audited.

let rig: photoTests.PhotoRig;
let t: TestApp;
const as = (email: string) => rig.as(email);
const detector = () => rig.detector();
const sentReport = () => rig.sentReport('Visita svolta, foto da rivedere.');
const create = (client: ApiClient, clientReportId: string, index: number, bytes: Buffer) =>
  photoTests.tusCreate(client, bytes.length, photoTests.tusMetadata(clientReportId, index, bytes));
const patch = (location: string, offset: number, chunk: Buffer, headers: Record<string, string> = {}) =>
  photoTests.tusPatch(detector(), location, offset, chunk, headers);
const { fakeJpeg, sha256Hex, PHOTO_OTHERS, PHOTO_STAFF } = photoTests;

/** A photo of the demo detector's report, sent with tus: its id in the visit's list. */
async function sentPhoto(clientReportId: string, index: number, bytes = fakeJpeg(600)): Promise<number> {
  expect((await photoTests.tusUpload(detector(), clientReportId, index, bytes)).statusCode).toBe(204);
  const [row] = await t.database.db
    .select({ id: visitReportPhotos.id })
    .from(visitReportPhotos)
    .where(
      and(eq(visitReportPhotos.clientReportId, clientReportId), eq(visitReportPhotos.photoIndex, index)),
    );
  return row!.id;
}

const photoUrl = (visitId: number, photoId: number) => `/api/visits/${visitId}/photos/${photoId}`;
const remove = (client: ApiClient, visitId: number, photoId: number) =>
  client.send('DELETE', photoUrl(visitId, photoId));
const listOf = async (client: ApiClient, visitId: number) =>
  ReportPhotoListSchema.parse((await client.get(`/api/visits/${visitId}/photos`)).json()).items;
const photoDeletedNotices = () =>
  t.database.db
    .select({ recipient: outbox.recipient, text: outbox.textBody })
    .from(outbox)
    .where(eq(outbox.templateKey, 'email.visita-foto-eliminata'))
    .orderBy(asc(outbox.id));
const auditOf = (visitId: number, action: string) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.action, action), eq(auditLog.entity, 'visit'), eq(auditLog.entityId, String(visitId))),
    );

async function decideReport(visitId: number, decision: 'approve' | 'reject' | 'request_changes') {
  const [item] = await t.database.db
    .select({ id: reviews.id })
    .from(reviews)
    .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, visitId)));
  const body =
    decision === 'approve'
      ? { decision }
      : { decision, note: 'Una foto mostra il volto di un bambino.', fields: ['report'] };
  const res = await as('sylla@demo.test').post(`/api/reviews/visite/${item!.id}/decision`, body);
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  rig = await photoTests.photoRig({
    phone: '+393330000996',
    ministryCode: 'FOT0000002',
    name: 'Plesso foto da eliminare',
  });
  t = rig.t;
}, 180_000);
afterAll(() => rig.close());

describe('deleting a sent photo', () => {
  it('its detector deletes it before the review: file and quota freed, audited, a replay does not bring it back', async () => {
    const { visitId, clientReportId } = await sentReport();
    const bytes = fakeJpeg(700 * 1024);
    const photoId = await sentPhoto(clientReportId, 0, bytes);
    // Each photo received is audited: what arrived, never its bytes.
    const [received] = await auditOf(visitId, 'visit-report.photo-received');
    expect(received).toMatchObject({
      actorUserId: rig.detectorId,
      after: {
        clientReportId,
        index: 0,
        sizeBytes: bytes.length,
        sha256: sha256Hex(bytes),
        mediaType: 'image/jpeg',
      },
    });
    expect(await listOf(detector(), visitId)).toEqual([
      expect.objectContaining({ id: photoId, deletable: true }),
    ]);
    const [{ fileKey }] = (await t.database.db
      .select({ fileKey: visitReportPhotos.fileKey })
      .from(visitReportPhotos)
      .where(eq(visitReportPhotos.id, photoId))) as [{ fileKey: string }];
    // 700 KB of 1 MB used: another 700 KB photo does not fit.
    const second = fakeJpeg(700 * 1024);
    expect((await create(detector(), clientReportId, 1, second)).json()).toMatchObject({
      code: 'photo_quota_exceeded',
    });

    const res = await remove(detector(), visitId, photoId);
    expect(res.statusCode, res.body).toBe(204);
    expect(await listOf(detector(), visitId)).toEqual([]);
    expect((await detector().get(photoUrl(visitId, photoId))).statusCode).toBe(404);
    await expect(readStored(t.app.files, fileKey)).rejects.toThrow();
    const [row] = await t.database.db
      .select()
      .from(visitReportPhotos)
      .where(eq(visitReportPhotos.id, photoId));
    expect(row).toMatchObject({ fileKey: null, deletedByUserId: rig.detectorId });
    expect(row!.deletedAt).toBeInstanceOf(Date);
    const [audit] = await auditOf(visitId, 'visit-report.photo-deleted');
    expect(audit).toMatchObject({
      actorUserId: rig.detectorId,
      before: {
        clientReportId,
        index: 0,
        sizeBytes: bytes.length,
        sha256: sha256Hex(bytes),
        mediaType: 'image/jpeg',
      },
    });
    expect(JSON.stringify(audit)).not.toContain(bytes.subarray(0, 32).toString('base64'));

    // The quota is free again.
    expect((await create(detector(), clientReportId, 1, second)).statusCode).toBe(201);
    // A replay of the deleted photo (a device that never got the answer) is "già ricevuta": nothing comes back.
    const replay = await create(detector(), clientReportId, 0, bytes);
    expect(replay.statusCode).toBe(409);
    expect(replay.json()).toMatchObject({ code: 'photo_already_received' });
    expect(await listOf(detector(), visitId)).toEqual([]);
    // Deleted already: 404. An id that is not one names no record: 404 in Italian (the API's rule for path
    // params, lib/request-validation.ts), nothing changed.
    const again = await remove(detector(), visitId, photoId);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ message: 'Foto non trovata.' });
    for (const bad of ['abc', '-1', '1.5', '0x10']) {
      const res = await detector().send('DELETE', `/api/visits/${visitId}/photos/${bad}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().message, bad).toMatch(/non (trovat|esist)/i);
    }
    expect(await auditOf(visitId, 'visit-report.photo-deleted')).toHaveLength(1);
  });

  it('roles: guest 401, another detector and other roles 403, staff who review 204, unknown 404', async () => {
    const { visitId, clientReportId } = await sentReport();
    const ids = [];
    for (let index = 0; index < PHOTO_STAFF.length; index++) ids.push(await sentPhoto(clientReportId, index));
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await remove(guest, visitId, ids[0]!)).statusCode).toBe(401);
    for (const email of [OTHER_DETECTOR, ...PHOTO_OTHERS])
      expect((await remove(as(email), visitId, ids[0]!)).statusCode, email).toBe(403);
    expect(await listOf(detector(), visitId)).toHaveLength(PHOTO_STAFF.length);
    for (const [i, email] of PHOTO_STAFF.entries()) {
      expect((await listOf(as(email), visitId))[0]).toMatchObject({ deletable: true });
      const res = await remove(as(email), visitId, ids[i]!);
      expect(res.statusCode, `${email} ${res.body}`).toBe(204);
    }
    expect(await listOf(detector(), visitId)).toEqual([]);
    expect((await remove(as('sylla@demo.test'), 987_654_321, ids[0]!)).statusCode).toBe(404);
    expect((await remove(as('sylla@demo.test'), visitId, 987_654_321)).statusCode).toBe(404);
  });

  it('once the report is approved its detector may not, staff still may and the detector is told; sent back for changes, the detector may', async () => {
    const approved = await sentReport();
    const a = await sentPhoto(approved.clientReportId, 0);
    await decideReport(approved.visitId, 'approve');
    expect((await listOf(detector(), approved.visitId))[0]).toMatchObject({ deletable: false });
    const refused = await remove(detector(), approved.visitId, a);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      message: 'Il resoconto è già stato revisionato: solo lo staff può eliminarne le foto.',
    });
    const noticesBefore = (await photoDeletedNotices()).length;
    expect((await remove(as('cromos@demo.test'), approved.visitId, a)).statusCode).toBe(204);
    // Staff deleted it: the detector is told which photo of which visit, once.
    const notices = (await photoDeletedNotices()).slice(noticesBefore);
    expect(notices.map((n) => n.recipient)).toEqual([DEMO_DETECTOR]);
    expect(notices[0]!.text).toContain(
      'la foto n. 1 del tuo resoconto della visita al plesso Plesso foto da eliminare',
    );

    const sentBack = await sentReport();
    const b = await sentPhoto(sentBack.clientReportId, 0);
    await decideReport(sentBack.visitId, 'request_changes');
    expect((await remove(detector(), sentBack.visitId, b)).statusCode).toBe(204);
    // Their own deletion tells nobody.
    expect(await photoDeletedNotices()).toHaveLength(noticesBefore + 1);
  });
});

describe('the tus routes answer in the one error shape, in Italian', () => {
  it('a wrong offset, an unknown upload, a missing version', async () => {
    const { clientReportId } = await sentReport();
    const bytes = fakeJpeg(900);
    const created = await create(detector(), clientReportId, 0, bytes);
    const location = created.headers.location as string;
    expect(created.headers['tus-resumable']).toBe('1.0.0');
    const conflict = await patch(location, 10, bytes.subarray(0, 10));
    expect(conflict.statusCode).toBe(409);
    expect(conflict.headers['content-type']).toMatch(/^application\/json/);
    expect(conflict.json()).toEqual({
      statusCode: 409,
      code: 'upload_offset_conflict',
      message: 'Il caricamento della foto non riprende dal punto giusto: riprova.',
    });
    const noVersion = await detector().send('PATCH', location, {
      headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: bytes,
    });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.json()).toMatchObject({ code: 'unsupported_tus_version' });
    const badOffset = await patch(location, 0, bytes, { 'upload-offset': 'abc' });
    expect(badOffset.statusCode).toBe(400);
    expect(badOffset.json()).toMatchObject({ code: 'invalid_upload_headers' });
    const gone = await patch(`${TUS}/${clientReportId}_0_${'0'.repeat(32)}`, 0, bytes);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'upload_not_found' });
    // Nothing above broke the upload: it still finishes.
    expect((await patch(location, 0, bytes)).statusCode).toBe(204);
  });
});
