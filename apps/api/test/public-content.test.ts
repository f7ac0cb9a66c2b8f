import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { institutes, schoolSites, teacherProfiles, users } from '../src/db/schema/index.ts';
import { seedPublicContent } from '../src/modules/public/public-seed.ts';
import { seedDemoSurveys } from '../src/modules/surveys/surveys-seed.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
  await seedPublicContent(t.database.db, t.clock.now());
  await seedDemoSurveys(t.database.db, t.clock.now());
});
afterAll(() => t.close());

describe('GET /api/public/figures', () => {
  it('counts enrolled institutes, participating plessi and teachers/educators', async () => {
    const [first] = await t.database.db.select().from(institutes).limit(1);
    await t.database.db.insert(schoolSites).values([
      {
        ministryCode: 'RMEE8AB01A',
        instituteId: first!.id,
        name: 'Plesso A',
        schoolLevel: 'primaria',
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating: true,
      },
      {
        ministryCode: 'RMEE8AB02B',
        instituteId: first!.id,
        name: 'Plesso B',
        schoolLevel: 'primaria',
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
      },
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/api/public/figures' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // Demo seed: two institutes moved out of 'nessuna'. Teachers: registrations not rejected, as the staff dashboard counts them (decision 040).
    const registrations = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from teacher_profiles where review_state <> 'respinta'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]!.n;
    expect(body).toMatchObject({
      institutesEnrolled: 2,
      participatingSites: 1,
      registeredTeachers: registrations,
    });
    expect(res.headers['cache-control']).toBe('public, max-age=60');

    await t.database.db
      .update(institutes)
      .set({ adhesionState: 'nessuna' })
      .where(eq(institutes.id, first!.id));
    const after = (await t.app.inject({ method: 'GET', url: '/api/public/figures' })).json();
    expect(after.institutesEnrolled).toBe(1);
  });

  it('is counted again after every write it depends on, and only then (decision 020)', async () => {
    const figures = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/public/figures' })).json<Record<string, number>>();
    const count = async (query: ReturnType<typeof sql>) =>
      ((await t.database.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
    const version = () =>
      count(sql`select coalesce(sum(weight), 0)::int as n from data_changes where topic = 'figures'`);
    const before = await figures();
    const at = await version();
    // A write to what the figures do not count keeps the version.
    await t.database.db
      .update(schoolSites)
      .set({ name: 'Plesso A (rinominato)' })
      .where(eq(schoolSites.ministryCode, 'RMEE8AB01A'));
    expect(await version()).toBe(at);

    await t.database.db
      .update(schoolSites)
      .set({ participating: true })
      .where(eq(schoolSites.ministryCode, 'RMEE8AB02B'));
    expect((await figures()).participatingSites).toBe(before.participatingSites! + 1);

    // Registered teachers: registrations not rejected (decision 040), the staff dashboard's count too.
    const [staff] = await t.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'sylla@demo.test'));
    await t.database.db
      .insert(teacherProfiles)
      .values({ userId: staff!.id, kind: 'insegnante', reviewState: 'in_attesa' });
    expect((await figures()).registeredTeachers).toBe(before.registeredTeachers! + 1);
    await t.database.db
      .update(teacherProfiles)
      .set({ reviewState: 'respinta' })
      .where(eq(teacherProfiles.userId, staff!.id));
    expect((await figures()).registeredTeachers).toBe(before.registeredTeachers);
    await t.database.db.delete(teacherProfiles).where(eq(teacherProfiles.userId, staff!.id));
    expect((await figures()).registeredTeachers).toBe(before.registeredTeachers);

    await t.database.db
      .update(institutes)
      .set({ adhesionState: 'iscritto' })
      .where(eq(institutes.adhesionState, 'nessuna'));
    expect((await figures()).institutesEnrolled).toBe(
      await count(sql`select count(*)::int as n from institutes where adhesion_state <> 'nessuna'`),
    );
  });
});

describe('documents', () => {
  it('lists the published documents grouped by category', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/documents' });
    expect(res.statusCode).toBe(200);
    const { groups } = res.json();
    expect(groups.map((g: { category: string }) => g.category)).toEqual(['regolamenti', 'privacy', 'guide']);
    expect(groups[0].label).toBe('Regolamenti');
    expect(groups[1].documents[0]).toMatchObject({
      title: 'Informativa sul trattamento dei dati personali',
      fileName: 'informativa-privacy.pdf',
    });
    expect(JSON.stringify(groups)).not.toContain('content');
  });

  it('downloads a PDF with its content type and header', async () => {
    const { groups } = (await t.app.inject({ method: 'GET', url: '/api/public/documents' })).json();
    const doc = groups[2].documents[0];
    const res = await t.app.inject({ method: 'GET', url: `/api/public/documents/${doc.id}/file` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="guida-per-le-scuole.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.rawPayload.byteLength).toBe(doc.sizeBytes);
  });

  it('answers 404 in Italian for an unknown document, and 404 for a malformed id (decision 009)', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/public/documents/999999/file' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      code: 'document_not_found',
      message: 'Il documento richiesto non esiste o non è più pubblicato.',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/public/documents/abc/file' })).statusCode).toBe(
      404,
    );
  });

  it('seeds once: a second run adds nothing', async () => {
    await seedPublicContent(t.database.db, t.clock.now());
    const { groups } = (await t.app.inject({ method: 'GET', url: '/api/public/documents' })).json();
    expect(groups.flatMap((g: { documents: unknown[] }) => g.documents)).toHaveLength(3);
  });
});

describe('GET /api/public/survey', () => {
  it('answers the current survey', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/public/survey' });
    expect(res.statusCode).toBe(200);
    // The open demo survey, not the closed pilot (seeded first).
    expect(res.json()).toMatchObject({ title: 'Indagine nazionale sulle scuole 2026', state: 'aperta' });
  });
});
