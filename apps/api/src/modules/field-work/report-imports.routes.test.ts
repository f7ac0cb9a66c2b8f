import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPORT_IMPORT_MESSAGES,
  ReportImportResultSchema,
  VisitReportConflictListSchema,
} from '@portale/shared/field-work';
import {
  auditLog,
  reviews,
  visitReportPhotos,
  visitReportSubmissions,
  visits,
} from '../../db/schema/index.ts';
import { readStored } from '../../lib/file-store.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import {
  addDetectorSite,
  addSecondDetector,
  DEMO_DETECTOR,
  userIdOf,
  loggedInClients,
  OTHER_DETECTOR,
  placeDemoTeacher,
  plannedVisit,
} from '../../../test/field-work-harness.ts';

// Issue 39: staff import a detector's "Esporta bozze" file on their behalf, and decide the reports kept
// as conflicts (decision 051).

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const admin = () => as('superadmin@demo.test');
const REFUSED = ['dirigente@demo.test', 'referente@demo.test', 'insegnante@demo.test', 'utenti@demo.test'];
const REPORT = 'Visita svolta: incontrati gli insegnanti, nessun problema.';

/** The detectors' photo quota here: the quota test fills the other detector's. */
const QUOTA_MB = 3;

let detectorId: number;
let otherId: number;
let siteId: number;
let teacherUserId: number;

/** A visit planned yesterday for `detector`, in `state`. */
const visit = (state: 'pianificata' | 'annullata' = 'pianificata', detector = detectorId) =>
  plannedVisit(t, siteId, detector, state);

const draft = (visitId: number, report = REPORT) => ({
  clientReportId: randomUUID(),
  visitId,
  report,
  teachersMet: [teacherUserId],
  status: 'failed',
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
  attempts: 1,
  lastError: 'Rete assente',
  sentAt: null,
});
const fileOf = (reports: unknown[]) =>
  JSON.stringify({ kind: 'portale-visit-reports', version: 1, exportedAt: '2026-11-21T10:00:00Z', reports });
const importUrl = (id = detectorId) => `/api/detectors/${id}/report-imports`;

/** A JPEG as far as its magic bytes go, `size` bytes long. */
function jpeg(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}
function png(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** A photo as the device's "Esporta bozze" writes it (version 2). */
const photoEntry = (bytes: Buffer, index = 0, mediaType = 'image/jpeg') => ({
  index,
  mediaType,
  sizeBytes: bytes.length,
  sha256: sha(bytes),
  data: bytes.toString('base64'),
});
const fileV2 = (reports: unknown[]) =>
  JSON.stringify({ kind: 'portale-visit-reports', version: 2, exportedAt: '2026-11-21T10:00:00Z', reports });
const photoRowsOf = (clientReportId: string) =>
  t.database.db
    .select()
    .from(visitReportPhotos)
    .where(eq(visitReportPhotos.clientReportId, clientReportId))
    .orderBy(visitReportPhotos.photoIndex);
async function storedFiles(): Promise<number> {
  let count = 0;
  for await (const _ of t.app.files.list()) count++;
  return count;
}

async function submissionsOf(ids: string[]) {
  return t.database.db
    .select()
    .from(visitReportSubmissions)
    .where(inArray(visitReportSubmissions.clientReportId, ids));
}

beforeAll(async () => {
  t = await buildTestApp({ DETECTOR_PHOTO_QUOTA_MB: String(QUOTA_MB) });
  ({ detectorId, otherId } = await addSecondDetector(t, '+393330000997'));
  siteId = await addDetectorSite(t, {
    ministryCode: 'IMP0000001',
    name: 'Plesso importato',
    detectorUserId: detectorId,
    address: 'Via dei Monti 2',
  });
  teacherUserId = await placeDemoTeacher(t, siteId);
  const emails = [
    'superadmin@demo.test',
    'sylla@demo.test',
    'cromos@demo.test',
    DEMO_DETECTOR,
    OTHER_DETECTOR,
  ];
  for (const [email, client] of await loggedInClients(t, [...emails, ...REFUSED])) clients.set(email, client);
}, 180_000);
afterAll(() => t.close());

describe('staff import of an exported drafts file', () => {
  it('shows what the file holds and changes nothing; on confirmation sends each report on the detector’s behalf, once', async () => {
    const [planned, cancelled, othersVisit] = [
      await visit(),
      await visit('annullata'),
      await visit('pianificata', otherId),
    ];
    const reports = [draft(planned), draft(cancelled), draft(othersVisit), draft(987_654_321)];
    const ids = reports.map((r) => r.clientReportId);
    const content = fileOf(reports);

    const preview = await as('sylla@demo.test').post(importUrl(), { content });
    expect(preview.statusCode, preview.body).toBe(200);
    const looked = ReportImportResultSchema.parse(preview.json());
    expect(looked).toMatchObject({ applied: false, exportedAt: '2026-11-21T10:00:00Z' });
    expect(looked.detector.id).toBe(detectorId);
    expect(looked.items.map((i) => i.status)).toEqual(['new', 'conflict', 'conflict', 'invalid']);
    expect(looked.items[0]).toMatchObject({
      site: { id: siteId, name: 'Plesso importato' },
      visitState: 'pianificata',
      writtenAt: '2026-11-20T09:00:00.000Z',
      teachersMet: 1,
    });
    expect(looked.items[3]!.message).toBe('Visita non trovata.');
    expect(await submissionsOf(ids)).toEqual([]);

    const applied = await as('sylla@demo.test').post(importUrl(), { content, confirm: true });
    expect(applied.statusCode, applied.body).toBe(200);
    const done = ReportImportResultSchema.parse(applied.json());
    expect(done.applied).toBe(true);
    expect(done.items.map((i) => i.status)).toEqual(['imported', 'conflict', 'conflict', 'invalid']);
    expect(done.counts).toMatchObject({ imported: 1, conflict: 2, invalid: 1, new: 0, received: 0 });
    const [v] = await t.database.db.select().from(visits).where(eq(visits.id, planned));
    expect(v).toMatchObject({ state: 'svolta', report: REPORT, detectorUserId: detectorId });
    const stored = await submissionsOf(ids);
    const syllaId = await userIdOf(t, 'sylla@demo.test');
    expect(stored.map((s) => [s.visitId, s.outcome, s.conflictCode, s.importedByUserId]).sort()).toEqual(
      [
        [planned, 'accepted', null, syllaId],
        [cancelled, 'conflict', 'visit_changed', syllaId],
        [othersVisit, 'conflict', 'visit_reassigned', syllaId],
      ].sort(),
    );
    // Audited: the staff actor, on behalf of the detector; one row for the import.
    const [reported] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'visit.reported'), eq(auditLog.entityId, String(planned))));
    expect(reported).toMatchObject({ actorUserId: syllaId });
    expect(reported!.after).toMatchObject({ onBehalfOf: detectorId, clientReportId: ids[0] });
    const imports = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'detector.reports-imported'), eq(auditLog.entityId, String(detectorId))),
      );
    expect(imports).toHaveLength(1);

    // Twice: nothing new (received / already kept), one report, one review, one more import audit row.
    const again = ReportImportResultSchema.parse(
      (await as('cromos@demo.test').post(importUrl(), { content, confirm: true })).json(),
    );
    expect(again.items.map((i) => i.status)).toEqual(['received', 'conflict', 'conflict', 'invalid']);
    expect(again.items[1]!.message).toBe('Già conservata come conflitto da risolvere.');
    expect(await submissionsOf(ids)).toHaveLength(3);
    const queued = await t.database.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.type, 'visite'), eq(reviews.subjectId, planned)));
    expect(queued).toHaveLength(1);
  });

  it('the same id with another content is not importable and overwrites nothing', async () => {
    const planned = await visit();
    const first = draft(planned);
    await admin().post(importUrl(), { content: fileOf([first]), confirm: true });
    const changed = { ...first, report: 'Un altro resoconto, diverso dal primo inviato.' };
    const res = await admin().post(importUrl(), { content: fileOf([changed]), confirm: true });
    expect(res.json().items[0]).toMatchObject({ status: 'invalid' });
    expect(res.json().items[0].message).toMatch(/contenuto diverso/);
    const [v] = await t.database.db.select().from(visits).where(eq(visits.id, planned));
    expect(v!.report).toBe(REPORT);
  });

  it('refuses a wrong file with a clear Italian message and stores nothing', async () => {
    const planned = await visit();
    const one = draft(planned);
    const cases: [string, RegExp][] = [
      ['non è json', /non è JSON/],
      [JSON.stringify({ hello: 'world' }), /non è un’esportazione di bozze/],
      [JSON.stringify({ kind: 'portale-visit-reports', version: 3, reports: [one] }), /Versione/],
      [
        fileOf([{ ...one, photos: [0, 1, 2, 3, 4, 0].map((i) => ({ ...photoEntry(jpeg(10)), index: i })) }]),
        /al massimo 5 foto/,
      ],
      [fileOf([{ ...one, photos: [photoEntry(jpeg(10)), photoEntry(jpeg(10))] }]), /stessa posizione/],
      [fileOf([{ ...one, photos: [{ ...photoEntry(jpeg(10)), index: 5 }] }]), /posizione della foto/],
      [fileOf([]), /non contiene bozze/],
      [fileOf([one, one]), /ripetuta/],
      [fileOf([{ ...one, visitId: 'x' }]), /Bozza n\. 1 .*visita non valida/],
    ];
    for (const [content, message] of cases) {
      const res = await admin().post(importUrl(), { content, confirm: true });
      expect(res.statusCode, content).toBe(422);
      expect(res.json().errors.content[0]).toMatch(message);
    }
    expect((await admin().post(importUrl(), { content: '' })).statusCode).toBe(422);
    expect(await submissionsOf([one.clientReportId])).toEqual([]);
  });

  it('staff who manage detectors only: guest 401, detectors (themselves or another) and other roles 403, unknown detector 404', async () => {
    const content = fileOf([draft(await visit())]);
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(importUrl(), { content })).statusCode).toBe(401);
    expect((await as('rilevatore@demo.test').post(importUrl(), { content })).statusCode).toBe(403);
    expect((await as('altro.rilevatore@demo.test').post(importUrl(), { content })).statusCode).toBe(403);
    for (const email of REFUSED)
      expect((await as(email).post(importUrl(), { content })).statusCode, email).toBe(403);
    for (const email of ['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test'])
      expect((await as(email).post(importUrl(), { content })).statusCode, email).toBe(200);
    expect((await admin().post(importUrl(987_654_321), { content })).statusCode).toBe(404);
    const teacher = await userIdOf(t, 'insegnante@demo.test');
    expect((await admin().post(importUrl(teacher), { content })).statusCode).toBe(404);
  });
});

describe('conflicts to resolve', () => {
  async function keptConflict(state: 'annullata' | 'pianificata' = 'annullata', owner = detectorId) {
    const visitId = await visit(state, owner);
    const one = draft(visitId);
    await admin().post(importUrl(), { content: fileOf([one]), confirm: true });
    return { visitId, clientReportId: one.clientReportId };
  }
  const resolve = (email: string, id: string, body: unknown) =>
    as(email).post(`/api/visit-report-conflicts/${id}/resolution`, body);

  it('lists both versions with server-side filters, sort and pages', async () => {
    const changed = await keptConflict();
    const moved = await keptConflict('pianificata', otherId);
    const res = await as('cromos@demo.test').get(
      `/api/visit-report-conflicts?state=open&detectorId=${detectorId}&sort=submittedAt&pageSize=100`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const list = VisitReportConflictListSchema.parse(res.json());
    const mine = list.items.filter((c) => [changed.visitId, moved.visitId].includes(c.visit.id));
    expect(mine.map((c) => c.code).sort()).toEqual(['visit_changed', 'visit_reassigned']);
    expect(mine.find((c) => c.code === 'visit_reassigned')).toMatchObject({
      report: REPORT,
      detector: { id: detectorId },
      importedBy: { id: await userIdOf(t, 'superadmin@demo.test') },
      visit: { state: 'pianificata', detector: { id: otherId }, site: { id: siteId } },
      resolution: null,
    });
    // The order is the server's (arrival, then id, in the asked direction): descending is ascending reversed.
    const ids = async (sort: string) =>
      (await admin().get(`/api/visit-report-conflicts?state=all&pageSize=100&sort=${sort}`))
        .json()
        .items.map((c: { clientReportId: string }) => c.clientReportId);
    expect(await ids('-submittedAt')).toEqual((await ids('submittedAt')).reverse());
    const searched = await admin().get('/api/visit-report-conflicts?q=imp0000001&state=all&pageSize=100');
    expect(searched.json().total).toBeGreaterThanOrEqual(2);
    const none = await admin().get('/api/visit-report-conflicts?q=nessun%25plesso');
    expect(none.json()).toMatchObject({ total: 0, items: [] });
    const reassigned = await admin().get('/api/visit-report-conflicts?code=visit_reassigned&pageSize=100');
    expect(reassigned.json().items.every((c: { code: string }) => c.code === 'visit_reassigned')).toBe(true);
    expect((await admin().get('/api/visit-report-conflicts?state=nope')).statusCode).toBe(422);
    expect((await admin().get('/api/visit-report-conflicts?sort=report')).statusCode).toBe(422);
  });

  it('accepting puts the device’s report on the visit, its author’s again, to review; decided once', async () => {
    const { visitId, clientReportId } = await keptConflict('pianificata', otherId);
    const res = await resolve('sylla@demo.test', clientReportId, { decision: 'accept' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resolution).toMatchObject({
      decision: 'accepted',
      by: { id: await userIdOf(t, 'sylla@demo.test') },
    });
    const [v] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(v).toMatchObject({
      state: 'svolta',
      report: REPORT,
      detectorUserId: detectorId,
      reviewState: 'in_attesa',
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'visit.report-conflict-accepted'), eq(auditLog.entityId, String(visitId))),
      );
    expect(audit!.before).toMatchObject({ state: 'pianificata', detectorUserId: otherId });
    const twice = await resolve('sylla@demo.test', clientReportId, { decision: 'discard', note: 'x' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Questo conflitto è già stato risolto.');
    const resolved = await admin().get('/api/visit-report-conflicts?state=resolved&pageSize=100');
    expect(resolved.json().items.map((c: { clientReportId: string }) => c.clientReportId)).toContain(
      clientReportId,
    );
  });

  it('discarding needs a note; a visit that has a report meanwhile cannot take the device’s version', async () => {
    const { visitId, clientReportId } = await keptConflict('pianificata', otherId);
    const noNote = await resolve('superadmin@demo.test', clientReportId, { decision: 'discard' });
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors.note[0]).toMatch(/Scrivi perché/);
    expect((await resolve('superadmin@demo.test', clientReportId, { decision: 'maybe' })).statusCode).toBe(
      422,
    );
    await t.database.db
      .update(visits)
      .set({ state: 'svolta', report: 'Il resoconto del nuovo rilevatore.', reviewState: 'in_attesa' })
      .where(eq(visits.id, visitId));
    const accept = await resolve('superadmin@demo.test', clientReportId, { decision: 'accept' });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().message).toMatch(/ha già un resoconto/);
    const discard = await resolve('superadmin@demo.test', clientReportId, {
      decision: 'discard',
      note: 'Visita svolta dal nuovo rilevatore.',
    });
    expect(discard.statusCode).toBe(200);
    expect(discard.json().resolution).toMatchObject({
      decision: 'discarded',
      note: 'Visita svolta dal nuovo rilevatore.',
    });
    const [v] = await t.database.db.select().from(visits).where(eq(visits.id, visitId));
    expect(v!.report).toBe('Il resoconto del nuovo rilevatore.');
  });

  it('exports the filtered conflicts as on screen (CSV, XLSX): staff only', async () => {
    await keptConflict();
    const url = `/api/visit-report-conflicts/export?state=open&detectorId=${detectorId}&q=imp0000001`;
    const csv = await as('sylla@demo.test').get(url);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const listed = await admin().get(
      `/api/visit-report-conflicts?state=open&detectorId=${detectorId}&q=imp0000001&pageSize=100`,
    );
    expect(csv.headers['x-total-count']).toBe(String(listed.json().total));
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Arrivato il;Motivo;Rilevatore;Codice meccanografico;Plesso');
    expect(lines).toHaveLength(1 + listed.json().total);
    expect(lines.some((l) => l.includes('Visita annullata o mancata') && l.includes('IMP0000001'))).toBe(
      true,
    );
    expect(csv.body).toContain(REPORT);
    const xlsx = await admin().get(`${url}&format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const guest = new ApiClient(t, nextIp());
    expect((await guest.get(url)).statusCode).toBe(401);
    for (const email of ['rilevatore@demo.test', ...REFUSED])
      expect((await as(email).get(url)).statusCode, email).toBe(403);
    expect((await admin().get('/api/visit-report-conflicts/export?state=nope')).statusCode).toBe(422);
  });

  it('staff decide: guest 401, the author and other roles 403, unknown conflict 404', async () => {
    const { clientReportId } = await keptConflict();
    const body = { decision: 'discard', note: 'Doppione.' };
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect(
      (await guest.post(`/api/visit-report-conflicts/${clientReportId}/resolution`, body)).statusCode,
    ).toBe(401);
    for (const email of ['rilevatore@demo.test', 'altro.rilevatore@demo.test', ...REFUSED])
      expect((await resolve(email, clientReportId, body)).statusCode, email).toBe(403);
    expect((await resolve('cromos@demo.test', randomUUID(), body)).statusCode).toBe(404);
    expect((await resolve('cromos@demo.test', clientReportId, body)).statusCode).toBe(200);
  });
});

describe('photos in the exported drafts (version 2)', () => {
  it('counts and checks the photos without storing them; on confirmation lands them once, a replay creates nothing', async () => {
    const planned = await visit();
    const [first, second] = [jpeg(3000), png(1_200_000)];
    const one = { ...draft(planned), photos: [photoEntry(first, 0), photoEntry(second, 1, 'image/png')] };
    const content = fileV2([one]);
    const before = await storedFiles();

    // Over the server's 1 MB body: the import route reads up to its own bound.
    const preview = await as('sylla@demo.test').post(importUrl(), { content });
    expect(preview.statusCode, preview.body).toBe(200);
    const looked = ReportImportResultSchema.parse(preview.json());
    expect(looked.items[0]).toMatchObject({ status: 'new' });
    expect(looked.items[0]!.photos).toEqual([
      { index: 0, sizeBytes: 3000, status: 'valid', message: null },
      { index: 1, sizeBytes: 1_200_000, status: 'valid', message: null },
    ]);
    expect(await photoRowsOf(one.clientReportId)).toEqual([]);
    expect(await storedFiles()).toBe(before);

    const applied = ReportImportResultSchema.parse(
      (await as('sylla@demo.test').post(importUrl(), { content, confirm: true })).json(),
    );
    expect(applied.items[0]).toMatchObject({ status: 'imported' });
    expect(applied.items[0]!.photos.map((p) => p.status)).toEqual(['landed', 'landed']);
    const rows = await photoRowsOf(one.clientReportId);
    expect(rows.map((r) => [r.photoIndex, r.mediaType, r.sizeBytes, r.detectorUserId])).toEqual([
      [0, 'image/jpeg', 3000, detectorId],
      [1, 'image/png', 1_200_000, detectorId],
    ]);
    expect((await readStored(t.app.files, rows[0]!.fileKey!)).equals(first)).toBe(true);
    expect((await readStored(t.app.files, rows[1]!.fileKey!)).equals(second)).toBe(true);
    expect(await storedFiles()).toBe(before + 2);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'detector.reports-imported'), eq(auditLog.entityId, String(detectorId))))
      .orderBy(auditLog.id)
      .then((r) => r.slice(-1));
    expect(audit!.after).toMatchObject({ photosLanded: 2 });

    // The same file again (preview and confirmation): "già ricevuta", no row, no file.
    const again = await as('cromos@demo.test').post(importUrl(), { content });
    expect(again.json().items[0].photos.map((p: { status: string }) => p.status)).toEqual([
      'received',
      'received',
    ]);
    const replay = ReportImportResultSchema.parse(
      (await as('cromos@demo.test').post(importUrl(), { content, confirm: true })).json(),
    );
    expect(replay.items[0]).toMatchObject({ status: 'received' });
    expect(replay.items[0]!.photos.map((p) => p.status)).toEqual(['received', 'received']);
    expect(await photoRowsOf(one.clientReportId)).toHaveLength(2);
    expect(await storedFiles()).toBe(before + 2);
  });

  it('lands the photos of a report the device had sent before it broke (the photos were still on it)', async () => {
    const planned = await visit();
    const one = draft(planned);
    const sent = await as(DEMO_DETECTOR).post(`/api/visits/${planned}/report`, {
      report: one.report,
      teachersMet: one.teachersMet,
      clientReportId: one.clientReportId,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const bytes = jpeg(5000);
    const content = fileV2([{ ...one, photos: [photoEntry(bytes, 2)] }]);
    const looked = (await admin().post(importUrl(), { content })).json();
    expect(looked.items[0]).toMatchObject({ status: 'received', photos: [{ index: 2, status: 'valid' }] });
    const done = (await admin().post(importUrl(), { content, confirm: true })).json();
    expect(done.items[0]).toMatchObject({ status: 'received', photos: [{ index: 2, status: 'landed' }] });
    expect((await photoRowsOf(one.clientReportId)).map((r) => r.sha256)).toEqual([sha(bytes)]);
  });

  it('refuses a bad photo on its own with its Italian message: nothing of it stored, the report and the good photo land', async () => {
    const planned = await visit();
    const good = jpeg(2000);
    const gif = Buffer.concat([Buffer.from('GIF89a'), randomBytes(500)]);
    const other = jpeg(800);
    const photos = [
      photoEntry(good, 0),
      { ...photoEntry(jpeg(900), 1), sha256: sha(other) },
      photoEntry(gif, 2),
      { ...photoEntry(jpeg(700), 3), data: '@@non base64@@' },
      { ...photoEntry(jpeg(600), 4), sizeBytes: 601 },
    ];
    const one = { ...draft(planned), photos };
    const content = fileV2([one]);
    const before = await storedFiles();
    const M = REPORT_IMPORT_MESSAGES;
    const expected = [null, M.photoHash, M.photoType, M.photoData, M.photoSize];

    const looked = ReportImportResultSchema.parse((await admin().post(importUrl(), { content })).json());
    expect(looked.items[0]!.photos.map((p) => [p.status, p.message])).toEqual(
      expected.map((m) => [m ? 'invalid' : 'valid', m]),
    );
    const done = ReportImportResultSchema.parse(
      (await admin().post(importUrl(), { content, confirm: true })).json(),
    );
    expect(done.items[0]!.status).toBe('imported');
    expect(done.items[0]!.photos.map((p) => [p.status, p.message])).toEqual(
      expected.map((m) => [m ? 'refused' : 'landed', m]),
    );
    expect((await photoRowsOf(one.clientReportId)).map((r) => r.photoIndex)).toEqual([0]);
    expect(await storedFiles()).toBe(before + 1);
    // The place of a photo already there is not taken by another one.
    const swapped = fileV2([{ ...one, photos: [photoEntry(jpeg(2000), 0)] }]);
    const taken = (await admin().post(importUrl(), { content: swapped, confirm: true })).json();
    expect(taken.items[0].photos[0]).toMatchObject({ status: 'refused', message: M.photoIndexTaken });
    expect(await storedFiles()).toBe(before + 1);
  });

  it('keeps to the detector’s photo quota (DETECTOR_PHOTO_QUOTA_MB)', async () => {
    const planned = await visit('pianificata', otherId);
    const size = 1_600_000; // two fit under 3 MB, not the third
    const photos = [jpeg(size), jpeg(size), jpeg(size)].map((b, i) => photoEntry(b, i));
    const one = { ...draft(planned), teachersMet: [], photos };
    const content = fileV2([one]);
    const quota = REPORT_IMPORT_MESSAGES.photoQuota(QUOTA_MB);
    const looked = (await admin().post(importUrl(otherId), { content })).json();
    expect(looked.items[0].photos.map((p: { status: string }) => p.status)).toEqual([
      'valid',
      'invalid',
      'invalid',
    ]);
    expect(looked.items[0].photos[1].message).toBe(quota);
    const done = (await admin().post(importUrl(otherId), { content, confirm: true })).json();
    expect(done.items[0].status).toBe('imported');
    expect(
      done.items[0].photos.map((p: { status: string; message: string | null }) => [p.status, p.message]),
    ).toEqual([
      ['landed', null],
      ['refused', quota],
      ['refused', quota],
    ]);
    expect(await photoRowsOf(one.clientReportId)).toHaveLength(1);
  });

  it('an old file (version 1, no photos) still imports; another detector’s report takes no photo; a report kept as a conflict keeps its photos for staff to decide', async () => {
    const old = draft(await visit());
    const res = ReportImportResultSchema.parse(
      (await admin().post(importUrl(), { content: fileOf([old]), confirm: true })).json(),
    );
    expect(res.items[0]).toMatchObject({ status: 'imported', photos: [] });

    // Someone else's report: the other detector sent it; a file for this detector cannot add photos to it.
    const othersVisit = await visit('pianificata', otherId);
    const theirs = { ...draft(othersVisit), teachersMet: [] };
    await admin().post(importUrl(otherId), { content: fileV2([theirs]), confirm: true });
    const cancelled = { ...draft(await visit('annullata')), photos: [photoEntry(jpeg(900))] };
    const content = fileV2([{ ...theirs, photos: [photoEntry(jpeg(1000))] }, cancelled]);
    const done = ReportImportResultSchema.parse(
      (await admin().post(importUrl(), { content, confirm: true })).json(),
    );
    expect(done.items.map((i) => [i.status, i.photos[0]!.status, i.photos[0]!.message])).toEqual([
      ['invalid', 'refused', REPORT_IMPORT_MESSAGES.photoOfInvalid],
      ['conflict', 'landed', null],
    ]);
    expect(await photoRowsOf(theirs.clientReportId)).toEqual([]);
    // The visit was cancelled meanwhile: the device's version is kept with its photo (decision 051).
    expect((await photoRowsOf(cancelled.clientReportId)).map((r) => r.sizeBytes)).toEqual([900]);
  });

  it('every role on a file with photos: staff 200, guest 401, detectors and other roles 403 (nothing read or stored), unknown detector 404', async () => {
    const one = { ...draft(await visit()), photos: [photoEntry(jpeg(1500))] };
    const content = fileV2([one]);
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post(importUrl(), { content, confirm: true })).statusCode).toBe(401);
    for (const email of [DEMO_DETECTOR, OTHER_DETECTOR, ...REFUSED])
      expect((await as(email).post(importUrl(), { content, confirm: true })).statusCode, email).toBe(403);
    expect(await photoRowsOf(one.clientReportId)).toEqual([]);
    for (const email of ['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test'])
      expect((await as(email).post(importUrl(), { content })).statusCode, email).toBe(200);
    expect((await admin().post(importUrl(987_654_321), { content })).statusCode).toBe(404);
  });

  it('one import at a time: another one meanwhile is an Italian 429, its body unread; then imports go on', async () => {
    const content = fileV2([draft(await visit())]);
    const text = JSON.stringify({ content });
    // A staff member's slow connection: the first bytes, then the rest only when the test says.
    let reading!: () => void;
    const started = new Promise<void>((resolve) => (reading = resolve));
    let finish!: () => void;
    const rest = new Promise<void>((resolve) => (finish = resolve));
    let sent = false;
    const slow = new Readable({
      read() {
        if (sent) return;
        sent = true;
        this.push(text.slice(0, 100));
        reading();
        void rest.then(() => {
          this.push(text.slice(100));
          this.push(null);
        });
      },
    });
    const first = admin().send('POST', importUrl(), {
      headers: { 'content-type': 'application/json' },
      payload: slow,
    });
    await started;
    const busy = await as('sylla@demo.test').post(importUrl(), { content });
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBe('10');
    expect(busy.json()).toMatchObject({ code: 'import_busy', message: REPORT_IMPORT_MESSAGES.busy });
    finish();
    expect((await first).statusCode).toBe(200);
    expect((await as('sylla@demo.test').post(importUrl(), { content })).statusCode).toBe(200);
    // A refused import (413) leaves the gate open too.
    const headers = { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024 + 1) };
    expect((await admin().send('POST', importUrl(), { headers, payload: '{}' })).statusCode).toBe(413);
    expect((await admin().post(importUrl(), { content })).statusCode).toBe(200);
  });

  it('a file past the bound is an Italian 413 before it is read; a guest’s is a 401', async () => {
    const headers = { 'content-type': 'application/json', 'content-length': String(64 * 1024 * 1024 + 1) };
    const big = await admin().send('POST', importUrl(), { headers, payload: '{}' });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ code: 'payload_too_large', message: REPORT_IMPORT_MESSAGES.tooLarge });
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.send('POST', importUrl(), { headers, payload: '{}' })).statusCode).toBe(401);
  });
});
