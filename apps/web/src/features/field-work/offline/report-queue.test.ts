import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http-client.ts';
import { createReportQueue, type ReportTransport, type SendOutcome } from './report-queue.ts';
import { openReportStore, REPORT_DB_VERSION, type ReportDbV1 } from './report-store.ts';
import { outcomeOfError } from './report-transport.ts';

let dbCount = 0;
const freshName = () => `reports-test-${++dbCount}`;

/** The server's idempotency as decision 043 states it: one report per client id, a replay answers the stored result. */
function fakeServer() {
  const stored = new Map<string, { payload: string; outcome: SendOutcome }>();
  const state = { created: 0, calls: 0, dropAnswers: 0, offline: false };
  const transport: ReportTransport = async (r) => {
    state.calls++;
    // Let the other tab interleave, as a real network would.
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (state.offline) throw new ApiError(0, 'Rete non raggiungibile.');
    const payload = JSON.stringify([r.visitId, r.report, [...r.teachersMet].sort()]);
    const previous = stored.get(r.clientReportId);
    let outcome: SendOutcome;
    if (previous)
      outcome =
        previous.payload === payload ? previous.outcome : { kind: 'rejected', message: 'Contenuto diverso.' };
    else {
      state.created++;
      outcome = { kind: 'sent' };
      stored.set(r.clientReportId, { payload, outcome });
    }
    if (state.dropAnswers > 0) {
      // The server did its work, the answer is lost on the way back (4G drop mid-send).
      state.dropAnswers--;
      throw new ApiError(0, 'Rete non raggiungibile.');
    }
    return outcome;
  };
  return { transport, state };
}

let ids = 0;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

describe('the local store of visit reports', () => {
  it('keeps a draft after the tab is closed (a new connection finds it)', async () => {
    const name = freshName();
    const { transport } = fakeServer();
    const first = await openReportStore(name);
    const draft = await createReportQueue({ store: first, transport, newId }).saveDraft({
      visitId: 7,
      report: 'Prima stesura',
      teachersMet: [3],
    });
    first.close();
    const reopened = createReportQueue({ store: await openReportStore(name), transport, newId });
    expect(await reopened.draftOf(7)).toMatchObject({
      clientReportId: draft.clientReportId,
      report: 'Prima stesura',
      status: 'draft',
    });
    // Typing again updates the same record: one client id per draft.
    await reopened.saveDraft({
      clientReportId: draft.clientReportId,
      visitId: 7,
      report: 'Seconda stesura',
      teachersMet: [3],
    });
    expect(await reopened.list()).toHaveLength(1);
  });

  it('upgrades a version-1 store and carries the unsent drafts forward', async () => {
    const name = freshName();
    const v1 = await openDB<ReportDbV1>(name, 1, {
      upgrade: (db) => db.createObjectStore('drafts', { keyPath: 'clientReportId' }),
    });
    await v1.put('drafts', {
      clientReportId: 'a',
      visitId: 1,
      report: 'Bozza vecchia',
      teachersMet: [],
      savedAt: '2026-11-20T08:00:00.000Z',
    });
    await v1.put('drafts', {
      clientReportId: 'b',
      visitId: 2,
      report: 'Altra bozza',
      teachersMet: [5],
      savedAt: '2026-11-21T08:00:00.000Z',
    });
    v1.close();
    const store = await openReportStore(name);
    expect(store.version).toBe(REPORT_DB_VERSION);
    expect([...store.objectStoreNames].sort()).toEqual(['meta', 'photos', 'reports']);
    const queue = createReportQueue({ store, transport: fakeServer().transport });
    expect((await queue.list()).map((r) => [r.clientReportId, r.status, r.report, r.createdAt])).toEqual([
      ['a', 'draft', 'Bozza vecchia', '2026-11-20T08:00:00.000Z'],
      ['b', 'draft', 'Altra bozza', '2026-11-21T08:00:00.000Z'],
    ]);
    expect(await queue.summary()).toMatchObject({ unsent: 2, oldestUnsentAt: '2026-11-20T08:00:00.000Z' });
  });
});

describe('the send queue', () => {
  it('two tabs sending the same draft make one server report', async () => {
    const name = freshName();
    const server = fakeServer();
    const tabA = createReportQueue({
      store: await openReportStore(name),
      transport: server.transport,
      newId,
    });
    const tabB = createReportQueue({
      store: await openReportStore(name),
      transport: server.transport,
      newId,
    });
    const draft = await tabA.saveDraft({
      visitId: 9,
      report: 'Visita svolta senza problemi.',
      teachersMet: [],
    });
    await tabA.submit(draft.clientReportId).catch(() => undefined);
    // Both tabs queue and flush at once (B re-queues it as if it had pressed "Invia" too).
    const db = await openReportStore(name);
    await db.put('reports', { ...(await db.get('reports', draft.clientReportId))!, status: 'queued' });
    await Promise.all([tabA.flush(), tabB.flush(), tabA.flush(), tabB.flush()]);
    expect(server.state.created).toBe(1);
    expect((await tabB.list())[0]).toMatchObject({ status: 'sent' });
  });

  it('two tabs flushing the same queued report concurrently still make one server report', async () => {
    const name = freshName();
    const server = fakeServer();
    server.state.offline = true;
    const tabA = createReportQueue({
      store: await openReportStore(name),
      transport: server.transport,
      newId,
    });
    const tabB = createReportQueue({
      store: await openReportStore(name),
      transport: server.transport,
      newId,
    });
    const draft = await tabA.saveDraft({
      visitId: 10,
      report: 'Resoconto scritto offline.',
      teachersMet: [1, 2],
    });
    await tabA.submit(draft.clientReportId);
    expect((await tabA.summary()).unsent).toBe(1);
    server.state.offline = false;
    await Promise.all([tabA.flush(), tabB.flush()]);
    expect(server.state.calls).toBeGreaterThanOrEqual(2);
    expect(server.state.created).toBe(1);
    expect(await tabA.summary()).toMatchObject({ unsent: 0, lastSuccessAt: expect.any(String) });
  });

  it('replays after a network error mid-send: the server made it once, the replay gets the stored answer', async () => {
    const server = fakeServer();
    server.state.dropAnswers = 1;
    const queue = createReportQueue({
      store: await openReportStore(freshName()),
      transport: server.transport,
      newId,
      now: () => new Date('2026-11-28T09:00:00Z'),
    });
    const draft = await queue.saveDraft({ visitId: 11, report: 'Scantinato senza campo.', teachersMet: [] });
    expect(await queue.submit(draft.clientReportId)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: 'Rete non raggiungibile.',
    });
    expect(server.state.created).toBe(1);
    expect(await queue.flush()).toBe(1);
    expect(server.state.created).toBe(1);
    expect(server.state.calls).toBe(2);
    expect(await queue.summary()).toEqual({
      unsent: 0,
      conflicts: 0,
      oldestUnsentAt: null,
      lastSuccessAt: '2026-11-28T09:00:00.000Z',
    });
  });

  it('sends at start, on reconnect and on focus', async () => {
    const server = fakeServer();
    server.state.offline = true;
    const queue = createReportQueue({
      store: await openReportStore(freshName()),
      transport: server.transport,
      newId,
    });
    const draft = await queue.saveDraft({ visitId: 12, report: 'In montagna, senza rete.', teachersMet: [] });
    await queue.submit(draft.clientReportId);
    const target = new EventTarget();
    const stop = queue.start(target as unknown as Window);
    await queue.flush();
    const callsAtStart = server.state.calls;
    expect(callsAtStart).toBeGreaterThanOrEqual(2);
    server.state.offline = false;
    target.dispatchEvent(new Event('online'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await queue.flush();
    expect(server.state.created).toBe(1);
    expect((await queue.summary()).unsent).toBe(0);
    stop();
    target.dispatchEvent(new Event('focus'));
    expect(server.state.calls).toBe(callsAtStart + 1);
  });

  it('retries, exports or discards one stuck record on its own; drafts are not sent until submitted', async () => {
    const server = fakeServer();
    const queue = createReportQueue({
      store: await openReportStore(freshName()),
      transport: server.transport,
      newId,
    });
    const stuck = await queue.saveDraft({ visitId: 13, report: 'Rifiutato dal server.', teachersMet: [] });
    const other = await queue.saveDraft({ visitId: 14, report: 'Ancora in bozza.', teachersMet: [] });
    server.state.offline = true;
    await queue.submit(stuck.clientReportId);
    expect(server.state.created).toBe(0);
    const exported = JSON.parse(await queue.exportJson(stuck.clientReportId));
    expect(exported).toMatchObject({
      kind: 'portale-visit-reports',
      reports: [{ clientReportId: stuck.clientReportId, report: 'Rifiutato dal server.' }],
    });
    expect(JSON.parse(await queue.exportJson()).reports).toHaveLength(2);
    server.state.offline = false;
    expect(await queue.retry(stuck.clientReportId)).toMatchObject({ status: 'sent' });
    expect(await queue.draftOf(14)).toMatchObject({ status: 'draft' });
    await queue.discard(other.clientReportId);
    expect((await queue.list()).map((r) => r.clientReportId)).toEqual([stuck.clientReportId]);
    expect(server.state.created).toBe(1);
  });

  it('maps the server answers: conflict and refusal stop, network and session errors keep it queued', () => {
    expect(outcomeOfError(new ApiError(409, 'Visita annullata', { code: 'visit_changed' }))).toEqual({
      kind: 'conflict',
      message: 'Visita annullata',
    });
    expect(
      outcomeOfError(new ApiError(409, 'Contenuto diverso', { code: 'client_report_id_reused' })),
    ).toEqual({ kind: 'rejected', message: 'Contenuto diverso' });
    expect(outcomeOfError(new ApiError(422, 'Resoconto troppo corto'))).toEqual({
      kind: 'rejected',
      message: 'Resoconto troppo corto',
    });
    for (const status of [0, 401, 419, 429, 500, 503])
      expect(outcomeOfError(new ApiError(status, 'x'))).toBeUndefined();
    expect(outcomeOfError(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('one draft per visit', () => {
  it('saves that race before the first has answered (quick typing, a photo, a second tab) make one draft', async () => {
    const name = freshName();
    const [tabA, tabB] = [await openReportStore(name), await openReportStore(name)];
    const { transport } = fakeServer();
    const [queueA, queueB] = [
      createReportQueue({ store: tabA, transport }),
      createReportQueue({ store: tabB, transport }),
    ];
    const drafts = await Promise.all([
      queueA.saveDraft({ visitId: 21, report: 'R', teachersMet: [] }),
      queueA.saveDraft({ visitId: 21, report: 'Ri', teachersMet: [] }),
      queueB.saveDraft({ visitId: 21, report: 'Rie', teachersMet: [] }),
      queueA.saveDraft({ visitId: 22, report: 'Altra visita', teachersMet: [] }),
    ]);
    expect(new Set(drafts.slice(0, 3).map((d) => d.clientReportId)).size).toBe(1);
    const stored = await queueA.list();
    expect(stored.filter((r) => r.visitId === 21)).toEqual([expect.objectContaining({ report: 'Rie' })]);
    expect(stored.filter((r) => r.visitId === 22)).toHaveLength(1);
    // Once it is queued, a new draft of the same visit is a new report.
    await queueA.submit(drafts[0]!.clientReportId);
    const next = await queueA.saveDraft({ visitId: 21, report: 'Seconda', teachersMet: [] });
    expect(next.clientReportId).not.toBe(drafts[0]!.clientReportId);
    tabA.close();
    tabB.close();
  });
});
