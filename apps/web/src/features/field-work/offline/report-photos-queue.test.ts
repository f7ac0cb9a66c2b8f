import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import {
  createReportQueue,
  type NewPhoto,
  type PhotoTransport,
  type ReportTransport,
  type SendOutcome,
} from './report-queue.ts';
import { openReportStore, REPORT_DB_VERSION, type OfflineReport, type ReportDbV2 } from './report-store.ts';
import { photoOutcomeOf } from './photo-transport.ts';

// Issue 39, the photos (decision 055): kept with the draft in IndexedDB (store version 3), sent after the
// report, resumed from the kept upload URL, never twice.

let dbCount = 0;
const freshName = () => `photos-test-${++dbCount}`;
let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

const photo = (bytes = 1000): NewPhoto => ({
  blob: new Blob([new Uint8Array(bytes).fill(7)], { type: 'image/jpeg' }),
  type: 'image/jpeg',
  width: 1600,
  height: 1200,
});

/** A server that keeps one report per client id and one photo per (report, index), as the API does. */
function fakeServer() {
  const reports = new Set<string>();
  const photos = new Map<string, number>();
  const state = { reportCalls: 0, photoCalls: 0, cutNext: 0, urlsSeen: [] as (string | null)[] };
  const transport: ReportTransport = async (r) => {
    state.reportCalls++;
    reports.add(r.clientReportId);
    return { kind: 'sent' };
  };
  const photoTransport: PhotoTransport = async (p, keepUrl) => {
    state.photoCalls++;
    state.urlsSeen.push(p.uploadUrl);
    if (!reports.has(p.clientReportId)) return { kind: 'rejected', message: 'Resoconto mancante.' };
    const url = p.uploadUrl ?? `https://api.test/api/report-photo-uploads/${p.clientReportId}_${p.index}_x`;
    await keepUrl(url);
    if (state.cutNext > 0) {
      // The 4G drops mid-upload: the URL is kept, the upload goes on from there next time.
      state.cutNext--;
      throw new Error('Rete non raggiungibile.');
    }
    const key = `${p.clientReportId}/${p.index}`;
    photos.set(key, (photos.get(key) ?? 0) + 1);
    return { kind: 'sent' } satisfies SendOutcome;
  };
  return { transport, photoTransport, photos, state };
}

async function draftWithPhotos(queue: ReturnType<typeof createReportQueue>, count: number) {
  const draft = await queue.saveDraft({
    visitId: 3,
    report: 'Visita con foto del cortile.',
    teachersMet: [],
  });
  for (let i = 0; i < count; i++) await queue.addPhoto(draft.clientReportId, photo(1000 + i));
  return draft;
}

describe('store version 3', () => {
  it('upgrades a version-2 store: every report (draft, queued, failed) and the meta are carried forward', async () => {
    const name = freshName();
    const v2 = await openDB<ReportDbV2>(name, 2, {
      upgrade(db) {
        const reports = db.createObjectStore('reports', { keyPath: 'clientReportId' });
        reports.createIndex('byStatus', 'status');
        reports.createIndex('byVisit', 'visitId');
        db.createObjectStore('meta');
      },
    });
    const record = (clientReportId: string, status: OfflineReport['status']): OfflineReport => ({
      clientReportId,
      visitId: 4,
      report: `Resoconto ${clientReportId}`,
      teachersMet: [],
      status,
      createdAt: '2026-11-25T08:00:00.000Z',
      updatedAt: '2026-11-25T08:00:00.000Z',
      attempts: status === 'draft' ? 0 : 2,
      lastError: status === 'failed' ? 'Rifiutato.' : null,
      sentAt: null,
    });
    for (const [id, status] of [
      ['a', 'draft'],
      ['b', 'queued'],
      ['c', 'failed'],
    ] as const)
      await v2.put('reports', record(id, status));
    await v2.put('meta', '2026-11-24T10:00:00.000Z', 'lastSuccessAt');
    v2.close();

    const store = await openReportStore(name);
    expect(store.version).toBe(REPORT_DB_VERSION);
    expect([...store.objectStoreNames].sort()).toEqual(['meta', 'photos', 'reports']);
    const server = fakeServer();
    const queue = createReportQueue({ store, ...server });
    expect((await queue.list()).map((r) => [r.clientReportId, r.status])).toEqual([
      ['a', 'draft'],
      ['b', 'queued'],
      ['c', 'failed'],
    ]);
    expect(await queue.summary()).toMatchObject({ unsent: 3, lastSuccessAt: '2026-11-24T10:00:00.000Z' });
    // A report of the old version, without photos, is sent as before.
    expect(await queue.flush()).toBe(1);
    expect(server.state.photoCalls).toBe(0);
  });
});

describe('the photos of a draft', () => {
  it('keeps up to 5 photos with the draft (after the tab is closed); a sixth is refused; "Rimuovi" frees a place', async () => {
    const name = freshName();
    const server = fakeServer();
    const first = createReportQueue({ store: await openReportStore(name), ...server, newId });
    const draft = await draftWithPhotos(first, 5);
    await expect(first.addPhoto(draft.clientReportId, photo())).rejects.toThrow(
      'Al massimo 5 foto per resoconto.',
    );
    const reopened = createReportQueue({ store: await openReportStore(name), ...server, newId });
    const kept = await reopened.photosOf(draft.clientReportId);
    expect(kept.map((p) => [p.index, p.size, p.type])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [i, 1000 + i, 'image/jpeg']),
    );
    expect(kept[0]!.blob).toBeInstanceOf(Blob);
    expect(kept[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    await reopened.removePhoto(draft.clientReportId, 2);
    expect((await reopened.addPhoto(draft.clientReportId, photo())).index).toBe(2);
    // A report in sending takes no more photos.
    await reopened.submit(draft.clientReportId);
    await expect(reopened.addPhoto(draft.clientReportId, photo())).rejects.toThrow('già in invio');
  });

  it('sends the photos after the report; an upload cut mid-way goes on from its kept URL; sent photos leave the device', async () => {
    const server = fakeServer();
    const queue = createReportQueue({ store: await openReportStore(freshName()), ...server, newId });
    const draft = await draftWithPhotos(queue, 2);
    server.state.cutNext = 1;
    const afterCut = await queue.submit(draft.clientReportId);
    expect(afterCut).toMatchObject({ status: 'queued', lastError: 'Rete non raggiungibile.' });
    expect(await queue.hasPendingPhotos(draft.clientReportId)).toBe(true);
    const [cut] = await queue.photosOf(draft.clientReportId);
    expect(cut!.uploadUrl).toMatch(/_0_x$/);
    // Reconnect (a new tab after a reload would read the same URL from IndexedDB).
    expect(await queue.flush()).toBe(1);
    expect(server.state.urlsSeen).toEqual([null, cut!.uploadUrl, null]);
    expect([...server.photos]).toEqual([
      [`${draft.clientReportId}/0`, 1],
      [`${draft.clientReportId}/1`, 1],
    ]);
    expect(await queue.photosOf(draft.clientReportId)).toEqual([]);
    expect((await queue.list())[0]).toMatchObject({ status: 'sent' });
  });

  it('a replayed send makes no duplicate: the report is replayed, a photo already sent is not sent again', async () => {
    const server = fakeServer();
    const queue = createReportQueue({ store: await openReportStore(freshName()), ...server, newId });
    const draft = await draftWithPhotos(queue, 3);
    server.state.cutNext = 0;
    // The second photo's upload is cut: the first is on the server and off the device.
    const original = server.photoTransport;
    let calls = 0;
    const cutSecond: PhotoTransport = async (p, keep) => {
      if (++calls === 2) throw new Error('Rete non raggiungibile.');
      return original(p, keep);
    };
    const flaky = createReportQueue({
      store: await openReportStore(freshName()),
      transport: server.transport,
      photoTransport: cutSecond,
      newId,
    });
    const d2 = await draftWithPhotos(flaky, 3);
    await flaky.submit(d2.clientReportId);
    expect((await flaky.photosOf(d2.clientReportId)).map((p) => p.index)).toEqual([1, 2]);
    await flaky.flush();
    expect(server.state.reportCalls).toBe(2);
    expect([...server.photos.values()]).toEqual([1, 1, 1]);
    await queue.discard(draft.clientReportId);
    expect(await queue.photosOf(draft.clientReportId)).toEqual([]);
  });

  it('a photo the server refuses stops the report with its Italian message; the others keep flowing', async () => {
    const server = fakeServer();
    const refusing: PhotoTransport = async () => ({
      kind: 'rejected',
      message: 'La foto deve essere un file JPEG o PNG.',
    });
    const queue = createReportQueue({
      store: await openReportStore(freshName()),
      transport: server.transport,
      photoTransport: refusing,
      newId,
    });
    const draft = await draftWithPhotos(queue, 1);
    expect(await queue.submit(draft.clientReportId)).toMatchObject({
      status: 'failed',
      lastError: 'Foto 1: La foto deve essere un file JPEG o PNG.',
    });
    expect(await queue.hasPendingPhotos(draft.clientReportId)).toBe(true);
  });

  it('a report the server kept as a conflict still sends its photos: staff decide on the whole version', async () => {
    const server = fakeServer();
    const keptAsConflict: ReportTransport = async (r) => {
      await server.transport(r);
      return { kind: 'conflict', message: 'La visita è stata assegnata a un altro rilevatore.' };
    };
    const queue = createReportQueue({
      store: await openReportStore(freshName()),
      transport: keptAsConflict,
      photoTransport: server.photoTransport,
      newId,
    });
    const draft = await draftWithPhotos(queue, 2);
    expect(await queue.submit(draft.clientReportId)).toMatchObject({ status: 'conflict' });
    expect([...server.photos.keys()]).toEqual([`${draft.clientReportId}/0`, `${draft.clientReportId}/1`]);
    expect(await queue.hasPendingPhotos(draft.clientReportId)).toBe(false);
  });
});

describe('the answers of the tus server', () => {
  it('a replay of a received photo counts as sent; refusals carry the Italian message; transient answers retry', () => {
    expect(photoOutcomeOf(409, JSON.stringify({ code: 'photo_already_received', message: 'x' }))).toEqual({
      kind: 'sent',
    });
    expect(
      photoOutcomeOf(
        413,
        JSON.stringify({ code: 'photo_quota_exceeded', message: 'Hai raggiunto lo spazio massimo.' }),
      ),
    ).toEqual({
      kind: 'rejected',
      message: 'Hai raggiunto lo spazio massimo.',
    });
    expect(photoOutcomeOf(415, 'not json')).toEqual({
      kind: 'rejected',
      message: 'Foto rifiutata dal server (errore 415).',
    });
    for (const status of [0, 401, 423, 429, 503]) expect(photoOutcomeOf(status, '')).toBeUndefined();
  });
});
