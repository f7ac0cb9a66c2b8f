import 'fake-indexeddb/auto';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DraftFileReportSchema } from '@portale/shared/field-work';
import { base64Of } from './draft-export.ts';
import { createReportQueue, type PhotoTransport, type ReportTransport } from './report-queue.ts';
import { openReportStore } from './report-store.ts';

// "Esporta bozze" with the photos (decision 051, amendment): each unsent report carries the photos
// still on the device, in base64 with their media type, size and SHA-256, in the format the staff
// import reads (the shared contract's schema).

let dbCount = 0;
let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

function jpegBytes(size: number, fill: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('Esporta bozze with the photos', () => {
  it('writes version 2: each unsent report with the photos the server does not have yet, as the import reads them', async () => {
    const reportTransport: ReportTransport = async () => ({ kind: 'sent' });
    let photoCalls = 0;
    // The first photo reaches the server (it leaves the device); the network drops on the second.
    const photoTransport: PhotoTransport = async () => {
      if (++photoCalls > 1) throw new Error('Rete non raggiungibile.');
      return { kind: 'sent' };
    };
    const queue = createReportQueue({
      store: await openReportStore(`export-test-${++dbCount}`),
      transport: reportTransport,
      photoTransport,
      newId,
      now: () => new Date('2026-11-28T09:30:00.000Z'),
    });
    const withPhotos = await queue.saveDraft({ visitId: 21, report: 'Visita con foto.', teachersMet: [4] });
    const first = jpegBytes(1000, 1);
    const second = jpegBytes(70_000, 2); // more than one slice of the base64 conversion
    await queue.addPhoto(withPhotos.clientReportId, {
      blob: new Blob([first], { type: 'image/jpeg' }),
      type: 'image/jpeg',
      width: 1600,
      height: 1200,
    });
    await queue.addPhoto(withPhotos.clientReportId, {
      blob: new Blob([second], { type: 'image/jpeg' }),
      type: 'image/jpeg',
      width: 1600,
      height: 900,
    });
    const plain = await queue.saveDraft({ visitId: 22, report: 'Senza foto.', teachersMet: [] });
    await queue.submit(withPhotos.clientReportId);
    expect(photoCalls).toBe(2);
    expect((await queue.photosOf(withPhotos.clientReportId)).map((p) => p.index)).toEqual([1]);

    const file = JSON.parse(await queue.exportJson());
    expect(file).toMatchObject({
      kind: 'portale-visit-reports',
      version: 2,
      exportedAt: '2026-11-28T09:30:00.000Z',
    });
    const reports = (file.reports as unknown[]).map((r) => DraftFileReportSchema.parse(r));
    const byId = new Map(reports.map((r) => [r.clientReportId, r]));
    const exported = byId.get(withPhotos.clientReportId)!;
    expect(exported).toMatchObject({ visitId: 21, report: 'Visita con foto.', teachersMet: [4] });
    expect(exported.photos).toHaveLength(1);
    const [photo] = exported.photos;
    expect(photo).toMatchObject({
      index: 1,
      mediaType: 'image/jpeg',
      sizeBytes: 70_000,
      sha256: sha(second),
    });
    expect(new Uint8Array(Buffer.from(photo!.data, 'base64'))).toEqual(second);
    expect(byId.get(plain.clientReportId)!.photos).toEqual([]);

    // One report on its own carries its photos too.
    const one = JSON.parse(await queue.exportJson(withPhotos.clientReportId));
    expect(one.reports).toHaveLength(1);
    expect(one.reports[0].photos[0].sha256).toBe(sha(second));
  });

  it('base64 of a Blob is the bytes', async () => {
    const bytes = jpegBytes(100_001, 9);
    expect(await base64Of(new Blob([bytes]))).toBe(Buffer.from(bytes).toString('base64'));
    expect(await base64Of(new Blob([]))).toBe('');
  });
});
