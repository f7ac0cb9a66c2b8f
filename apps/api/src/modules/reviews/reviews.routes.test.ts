import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ReviewDetailSchema,
  ReviewListResponseSchema,
  ReviewNextResponseSchema,
  type ReviewDetail,
} from '@portale/shared/reviews';
import { AccountProfileSchema } from '@portale/shared/accounts';
import { ACCESS_CODE_MESSAGES } from '@portale/shared/surveys';
import {
  adhesionDocuments,
  adhesionSignatures,
  institutes,
  outbox,
  reviews,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { withTransaction } from '../../db/transaction.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { transitionAdhesion } from '../adhesions/adhesion-state.repository.ts';
import { seedMessageTemplates } from '../../seed/message-templates.ts';
import { submitForReview } from '../review-queue/review-submission.repository.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const sylla = () => as('sylla@demo.test');
const cromos = () => as('cromos@demo.test');

const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);
const READERS = new Set([...STAFF, 'utenti@demo.test']);

/** Teacher profile and review ids by last name. */
const teachers = new Map<string, { profileId: number; reviewId: number; email: string }>();
/** Institute and review ids by ministry code. */
const schools = new Map<string, { instituteId: number; reviewId: number }>();
let minute = 0;
/** Submissions a minute apart from a fixed past, so the queue's order is known. */
const nextSubmission = () => new Date(Date.UTC(2026, 10, 1, 8, minute++));

async function addTeacher(lastName: string, userEmail?: string) {
  const db = t.database.db;
  const email = userEmail ?? `${lastName.toLowerCase()}@esempio.it`;
  let [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!user) {
    [user] = await db
      .insert(users)
      .values({
        email,
        firstName: 'Maria',
        lastName,
        passwordHash: 'x',
        phone: '+393331112233',
        emailVerifiedAt: new Date(),
      })
      .returning({ id: users.id });
  }
  const [profile] = await db
    .insert(teacherProfiles)
    .values({ userId: user!.id, kind: 'insegnante', subjects: ['Storia'] })
    .returning({ id: teacherProfiles.id });
  const reviewId = await submitForReview(db, {
    type: 'insegnanti',
    subjectId: profile!.id,
    at: nextSubmission(),
  });
  teachers.set(lastName, { profileId: profile!.id, reviewId, email });
}

/** An institute taken through enrolment and signature with the state machine, then queued. */
async function addSignedInstitute(
  ministryCode: string,
  name: string,
  options: { principalEmail?: string; signed?: boolean } = {},
) {
  const db = t.database.db;
  let [row] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.ministryCode, ministryCode));
  if (!row) {
    [row] = await db
      .insert(institutes)
      .values({
        ministryCode,
        name,
        type: 'Istituto Comprensivo',
        isStateSchool: true,
        region: 'Lombardia',
        province: 'PV',
        municipalityCode: 'G388',
        municipalityName: 'Pavia',
      })
      .returning({ id: institutes.id });
    const at = new Date();
    await withTransaction(db, async (tx) => {
      await transitionAdhesion(tx, { instituteId: row!.id, to: 'iscritto', actorUserId: null, at });
      await transitionAdhesion(tx, { instituteId: row!.id, to: 'adesione_firmata', actorUserId: null, at });
    });
  }
  if (options.principalEmail) {
    const [principal] = await db
      .insert(users)
      .values({ email: options.principalEmail, firstName: 'Paola', lastName: 'Preside', passwordHash: 'x' })
      .returning({ id: users.id });
    await db.update(institutes).set({ principalUserId: principal!.id }).where(eq(institutes.id, row!.id));
  }
  let submissionId: number | null = null;
  if (options.signed) {
    const [doc] = await db
      .insert(adhesionDocuments)
      .values({
        instituteId: row!.id,
        version: 1,
        templateKey: 'documento.adesione',
        templateVersion: 1,
        pdf: Buffer.from('%PDF-1.7'),
        sha256: 'a'.repeat(64),
        createdAt: new Date(),
      })
      .returning({ id: adhesionDocuments.id });
    const [signature] = await db
      .insert(adhesionSignatures)
      .values({
        instituteId: row!.id,
        documentId: doc!.id,
        method: 'online',
        signerName: 'Paola Preside',
        signerTaxCode: 'PRSPLA70A41G388X',
        signedAt: new Date('2026-10-30T10:00:00Z'),
        documentSha256: 'a'.repeat(64),
        createdAt: new Date(),
      })
      .returning({ id: adhesionSignatures.id });
    submissionId = signature!.id;
  }
  const reviewId = await submitForReview(db, {
    type: 'adesioni',
    subjectId: row!.id,
    submissionId,
    at: nextSubmission(),
  });
  schools.set(ministryCode, { instituteId: row!.id, reviewId });
}

async function mailsTo(recipient: string, templateKey: string) {
  return t.database.db
    .select({ subject: outbox.subject, text: outbox.textBody })
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.templateKey, templateKey)))
    .orderBy(desc(outbox.id));
}

async function reviewRow(id: number) {
  const [row] = await t.database.db.select().from(reviews).where(eq(reviews.id, id));
  return row!;
}

const decide = (client: ApiClient, type: string, id: number, body: unknown) =>
  client.post(`/api/reviews/${type}/${id}/decision`, body);

beforeAll(async () => {
  t = await buildTestApp();
  await seedMessageTemplates(t.database.db);
  for (const name of ['Rossi', 'Bianchi', 'Esposito', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno'])
    await addTeacher(name);
  // The demo institute (slot 0) is already «adesione firmata», with the demo principal and first contact.
  await addSignedInstitute('RMIC8AB00X', 'demo', {});
  await addSignedInstitute('PVIC81000B', 'IC Pavia Nord', {
    principalEmail: 'preside.nord@esempio.it',
    signed: true,
  });
  await addSignedInstitute('PVIC82000C', 'IC Pavia Sud', { principalEmail: 'preside.sud@esempio.it' });
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 180_000);
afterAll(() => t.close());

describe('who may use the review queues', () => {
  it('lists, exports and items: staff and user.index 200; guest 401; others 403', async () => {
    const item = teachers.get('Rossi')!.reviewId;
    for (const url of [
      '/api/reviews/insegnanti',
      '/api/reviews/adesioni?state=in_attesa',
      '/api/reviews/insegnanti/export?format=csv',
      `/api/reviews/insegnanti/items/${item}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const expected =
          account.email === 'cambio-password@demo.test' ? 403 : READERS.has(account.email) ? 200 : 403;
        expect((await as(account.email).get(url)).statusCode, `${account.email} ${url}`).toBe(expected);
      }
    }
  });

  it('next and decisions: staff only (user.index reads but does not decide)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/reviews/visite/next' })).statusCode).toBe(401);
    for (const account of DEMO_ACCOUNTS) {
      // visite: an empty queue, so nothing is claimed or decided here.
      const next = await as(account.email).get('/api/reviews/visite/next');
      expect(next.statusCode, account.email).toBe(STAFF.has(account.email) ? 200 : 403);
      const decision = await decide(as(account.email), 'visite', 1, { decision: 'approve' });
      expect(decision.statusCode, account.email).toBe(STAFF.has(account.email) ? 404 : 403);
    }
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect(
      (await decide(guest, 'insegnanti', teachers.get('Rossi')!.reviewId, { decision: 'approve' }))
        .statusCode,
    ).toBe(401);
    expect((await reviewRow(teachers.get('Rossi')!.reviewId)).state).toBe('in_attesa');
  });

  it('an unknown type is a 404 in Italian on every route, never a 422', async () => {
    const id = teachers.get('Rossi')!.reviewId;
    for (const [method, url] of [
      ['GET', '/api/reviews/sconosciuto'],
      ['GET', '/api/reviews/sconosciuto/export?format=csv'],
      ['GET', '/api/reviews/sconosciuto/next'],
      ['GET', `/api/reviews/sconosciuto/items/${id}`],
      ['POST', `/api/reviews/sconosciuto/${id}/decision`],
      ['GET', '/api/reviews/INSEGNANTI?state=nonsense'],
    ] as const) {
      const res = await sylla().send(method, url, method === 'POST' ? { payload: {} } : {});
      expect(res.statusCode, url).toBe(404);
      expect(res.json<{ message: string }>().message, url).toMatch(/non esiste/);
    }
  });

  it('an item of another queue, or unknown, is a 404', async () => {
    const teacherItem = teachers.get('Rossi')!.reviewId;
    for (const url of [
      `/api/reviews/adesioni/items/${teacherItem}`,
      '/api/reviews/insegnanti/items/987654',
      `/api/reviews/visite/items/${teacherItem}`,
      '/api/reviews/insegnanti/items/abc',
    ]) {
      const res = await sylla().get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json<{ message: string }>().message, url).toBeTruthy();
    }
    const res = await decide(sylla(), 'adesioni', teacherItem, { decision: 'approve' });
    expect(res.statusCode).toBe(404);
    expect((await reviewRow(teacherItem)).state).toBe('in_attesa');
  });
});

describe('GET /api/reviews/:type', () => {
  it('lists the queue oldest first with counts per state; visite is a valid, empty queue', async () => {
    const body = ReviewListResponseSchema.parse(
      (await as('utenti@demo.test').get('/api/reviews/insegnanti')).json(),
    );
    expect(body.items.map((i) => i.title).slice(0, 3)).toEqual([
      'Rossi Maria',
      'Bianchi Maria',
      'Esposito Maria',
    ]);
    expect(body.items[0]).toMatchObject({
      type: 'insegnanti',
      code: 'rossi@esempio.it',
      state: 'in_attesa',
      decidedAt: null,
    });
    const rows = (await t.database.db.execute(
      sql`select count(*)::int as n from reviews where type = 'insegnanti'`,
    )) as unknown as { rows: { n: number }[] };
    expect(body.total).toBe(Number(rows.rows[0]!.n));
    expect(body.counts.in_attesa).toBeGreaterThanOrEqual(8);
    const visits = ReviewListResponseSchema.parse((await sylla().get('/api/reviews/visite')).json());
    expect(visits).toMatchObject({
      items: [],
      total: 0,
      counts: { in_attesa: 0, approvata: 0, da_correggere: 0, respinta: 0 },
    });
  });

  it('searches by name or code, filters by state, sorts and pages', async () => {
    const search = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/insegnanti?q=esposìto')).json(),
    );
    expect(search.items.map((i) => i.title)).toEqual(['Esposito Maria']);
    const byCode = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/adesioni?q=PVIC81000B')).json(),
    );
    expect(byCode.items.map((i) => i.title)).toEqual(['IC Pavia Nord']);
    expect(byCode.items[0]!.place).toBe('Pavia (PV)');
    const desc = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/insegnanti?sort=-submittedAt&pageSize=25')).json(),
    );
    expect(desc.items[0]!.title).toBe('Bruno Maria');
    const byTitle = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/insegnanti?sort=title')).json(),
    );
    expect(byTitle.items[0]!.title).toBe('Bianchi Maria');
    const approved = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/insegnanti?state=respinta')).json(),
    );
    expect(approved.items.every((i) => i.state === 'respinta')).toBe(true);
    expect(approved.total).toBe(approved.counts.respinta);
  });

  it('refuses a bad filter with a 422 in Italian', async () => {
    for (const query of ['state=chiusa', 'sort=code', 'pageSize=7', `q=${'x'.repeat(101)}`]) {
      const res = await sylla().get(`/api/reviews/insegnanti?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/dati non sono validi/);
    }
  });

  it('exports what the list shows as CSV', async () => {
    const res = await sylla().get('/api/reviews/insegnanti/export?format=csv&q=rossi');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Numero;Soggetto;Codice o e-mail;Luogo;Stato;Inviato il;Deciso il;Deciso da');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Rossi Maria');
    const xlsx = await sylla().get('/api/reviews/adesioni/export?format=xlsx');
    expect(xlsx.statusCode).toBe(200);
  });
});

describe('GET /api/reviews/:type/next', () => {
  it('gives two reviewers walking the queue at once different items, and the same item again to the same reviewer', async () => {
    const [a, b] = await Promise.all([
      sylla().get('/api/reviews/insegnanti/next'),
      cromos().get('/api/reviews/insegnanti/next'),
    ]);
    const first = ReviewNextResponseSchema.parse(a.json());
    const second = ReviewNextResponseSchema.parse(b.json());
    expect(first.item).not.toBeNull();
    expect(second.item).not.toBeNull();
    expect(first.item!.id).not.toBe(second.item!.id);
    const again = ReviewNextResponseSchema.parse((await sylla().get('/api/reviews/insegnanti/next')).json());
    expect(again.item!.id).toBe(first.item!.id);
    expect(again.item!.claimedBy).toBe('Stefano Sylla');
    // A claim lasts five minutes; then the item is anyone's again.
    t.clock.advance(5 * 60_000 + 1);
    const later = ReviewNextResponseSchema.parse((await cromos().get('/api/reviews/insegnanti/next')).json());
    expect([first.item!.id, second.item!.id]).toContain(later.item!.id);
  });

  it('answers an explicit empty item when nothing waits', async () => {
    const res = ReviewNextResponseSchema.parse((await sylla().get('/api/reviews/visite/next')).json());
    expect(res).toEqual({ item: null, pending: 0 });
  });
});

describe('GET /api/reviews/:type/items/:itemId', () => {
  it('shows an adhesion with its institute and its signature, or says the signature is missing', async () => {
    const signed = ReviewDetailSchema.parse(
      (
        await as('utenti@demo.test').get(`/api/reviews/adesioni/items/${schools.get('PVIC81000B')!.reviewId}`)
      ).json(),
    );
    expect(signed.content).toMatchObject({
      type: 'adesioni',
      institute: {
        name: 'IC Pavia Nord',
        ministryCode: 'PVIC81000B',
        municipalityName: 'Pavia',
        province: 'PV',
        principal: 'Paola Preside',
        firstContact: null,
      },
      signature: {
        method: 'online',
        signerName: 'Paola Preside',
        signerTaxCode: 'PRSPLA70A41G388X',
        documentSha256: 'a'.repeat(64),
      },
    });
    const demo = ReviewDetailSchema.parse(
      (await sylla().get(`/api/reviews/adesioni/items/${schools.get('RMIC8AB00X')!.reviewId}`)).json(),
    );
    expect(demo.content).toMatchObject({
      type: 'adesioni',
      institute: { principal: 'Daniela Dirigente', firstContact: 'Renato Referente' },
      signature: null,
    });
    expect(demo.history).toHaveLength(1);
  });
});

describe('POST /api/reviews/:type/:itemId/decision', () => {
  it('needs a note (trimmed, at most 2000 characters) to ask for changes or to reject: 422 per field', async () => {
    const id = teachers.get('Colombo')!.reviewId;
    for (const body of [
      { decision: 'reject' },
      { decision: 'request_changes', note: '   ' },
      { decision: 'reject', note: 'x'.repeat(2001) },
      { decision: 'approve', note: 42 },
    ]) {
      const res = await decide(sylla(), 'insegnanti', id, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(Object.keys(res.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['note']);
    }
    const res = await decide(sylla(), 'insegnanti', id, { decision: 'maybe' });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.decision?.[0]).toMatch(
      /Scegli una decisione/,
    );
    expect((await reviewRow(id)).state).toBe('in_attesa');
  });

  it('flags only fields of its queue, and only when asking for changes: 422 on `fields`, nothing recorded', async () => {
    const id = teachers.get('Colombo')!.reviewId;
    for (const [body, message] of [
      [
        { decision: 'request_changes', note: 'Plesso.', fields: ['schoolSites'] },
        /non si corregge in questa coda/,
      ],
      [{ decision: 'request_changes', note: 'Plesso.', fields: ['name'] }, /tra quelli proposti/],
      [{ decision: 'request_changes', note: 'Plesso.', fields: 'subjects; drop' }, /tra quelli proposti/],
      [{ decision: 'reject', note: 'No.', fields: ['subjects'] }, /solo quando chiedi correzioni/],
      [{ decision: 'approve', fields: ['schoolSite'] }, /solo quando chiedi correzioni/],
    ] as const) {
      const res = await decide(sylla(), 'insegnanti', id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json<{ errors: Record<string, string[]> }>().errors.fields?.[0], res.body).toMatch(message);
    }
    expect((await reviewRow(id)).state).toBe('in_attesa');
  });

  it('insegnanti: approve sets the registration approved, e-mails the welcome and audits', async () => {
    const teacher = teachers.get('Rossi')!;
    const res = await decide(sylla(), 'insegnanti', teacher.reviewId, { decision: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ item: ReviewDetail; nextItemId: number | null }>();
    expect(body.item).toMatchObject({ state: 'approvata', decidedBy: 'Stefano Sylla', note: null });
    expect(body.nextItemId).not.toBe(teacher.reviewId);
    const [profile] = await t.database.db
      .select({ state: teacherProfiles.reviewState })
      .from(teacherProfiles)
      .where(eq(teacherProfiles.id, teacher.profileId));
    expect(profile!.state).toBe('approvata');
    const [mail] = await mailsTo(teacher.email, 'email.revisione-insegnante-approvata');
    expect(mail!.subject).toMatch(/approvata/);
    const audit = (await t.database.db.execute(
      sql`select count(*)::int as n from audit_log where action = 'review.decided' and entity_id = ${String(teacher.reviewId)}`,
    )) as unknown as { rows: { n: number }[] };
    expect(Number(audit.rows[0]!.n)).toBe(1);
  });

  it('insegnanti: request changes e-mails the note and the link; the teacher fixes the profile and is queued again', async () => {
    // The demo teacher, who can sign in and update the profile.
    await addTeacher('Insegnante', 'insegnante@demo.test');
    const teacher = teachers.get('Insegnante')!;
    const note = '  Indica il plesso in cui insegni.  ';
    const res = await decide(cromos(), 'insegnanti', teacher.reviewId, {
      decision: 'request_changes',
      note,
      fields: ['schoolSite', 'subjects'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ item: ReviewDetail }>().item).toMatchObject({
      state: 'da_correggere',
      note: 'Indica il plesso in cui insegni.',
      fields: ['schoolSite', 'subjects'],
      history: [expect.objectContaining({ fields: ['schoolSite', 'subjects'] })],
    });
    const [mail] = await mailsTo(teacher.email, 'email.revisione-insegnante-da-correggere');
    expect(mail!.text).toContain('Indica il plesso in cui insegni.');
    expect(mail!.text).toContain('/auth/completa-registrazione');

    // Where the link lands: the profile carries the note; the codes area says why and where to correct (issue 35, item 2).
    const sentBack = AccountProfileSchema.parse(
      (await as('insegnante@demo.test').get('/api/account/profile')).json(),
    );
    expect(sentBack.teacherProfile).toMatchObject({
      reviewState: 'da_correggere',
      reviewNote: 'Indica il plesso in cui insegni.',
      reviewFields: ['schoolSite', 'subjects'],
    });
    expect((await as('insegnante@demo.test').get('/api/access-codes/options')).json()).toMatchObject({
      blockedReason: ACCESS_CODE_MESSAGES.toCorrect,
    });

    const update = await as('insegnante@demo.test').send('PATCH', '/api/account/profile', {
      payload: { subjects: ['Storia', 'Geografia'] },
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(AccountProfileSchema.parse(update.json()).teacherProfile).toMatchObject({
      reviewState: 'in_attesa',
      reviewNote: null,
      reviewFields: [],
      subjects: ['Storia', 'Geografia'],
    });
    const [profile] = await t.database.db
      .select({ state: teacherProfiles.reviewState })
      .from(teacherProfiles)
      .where(eq(teacherProfiles.id, teacher.profileId));
    expect(profile!.state).toBe('in_attesa');
    const pending = await t.database.db
      .select({ id: reviews.id })
      .from(reviews)
      .where(
        and(
          eq(reviews.type, 'insegnanti'),
          eq(reviews.subjectId, teacher.profileId),
          eq(reviews.state, 'in_attesa'),
        ),
      );
    expect(pending).toHaveLength(1);
    const detail = ReviewDetailSchema.parse(
      (await sylla().get(`/api/reviews/insegnanti/items/${pending[0]!.id}`)).json(),
    );
    expect(detail.history.map((h) => [h.state, h.note, h.decidedBy])).toEqual([
      ['in_attesa', null, null],
      ['da_correggere', 'Indica il plesso in cui insegni.', 'Chiara Cromos'],
    ]);
  });

  it('insegnanti: reject sets the registration rejected and e-mails the reason', async () => {
    const teacher = teachers.get('Bianchi')!;
    const res = await decide(sylla(), 'insegnanti', teacher.reviewId, {
      decision: 'reject',
      note: 'Non risulta docente di una scuola partecipante.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [profile] = await t.database.db
      .select({ state: teacherProfiles.reviewState })
      .from(teacherProfiles)
      .where(eq(teacherProfiles.id, teacher.profileId));
    expect(profile!.state).toBe('respinta');
    const [mail] = await mailsTo(teacher.email, 'email.revisione-insegnante-respinta');
    expect(mail!.text).toContain('Non risulta docente');
  });

  it('two reviewers deciding the same item at once: exactly one 200 and one 409 with the next item', async () => {
    const id = teachers.get('Esposito')!.reviewId;
    const results = await Promise.all([
      decide(sylla(), 'insegnanti', id, { decision: 'approve' }),
      decide(cromos(), 'insegnanti', id, { decision: 'reject', note: 'Dati incompleti.' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const conflict = results
      .find((r) => r.statusCode === 409)!
      .json<{ message: string; nextItemId: number | null; code: string }>();
    expect(conflict.code).toBe('review_already_decided');
    expect(conflict.message).toMatch(/già stato deciso/);
    expect(conflict.nextItemId).toEqual(expect.any(Number));
    expect(conflict.nextItemId).not.toBe(id);
    const outcome = await reviewRow(id);
    const sent = [
      ...(await mailsTo(teachers.get('Esposito')!.email, 'email.revisione-insegnante-approvata')),
      ...(await mailsTo(teachers.get('Esposito')!.email, 'email.revisione-insegnante-respinta')),
    ];
    expect(sent).toHaveLength(1);
    expect(['approvata', 'respinta']).toContain(outcome.state);
  });

  it('adesioni: approve makes the institute active and e-mails the principal and the first contact', async () => {
    const school = schools.get('RMIC8AB00X')!;
    const res = await decide(sylla(), 'adesioni', school.reviewId, { decision: 'approve' });
    expect(res.statusCode, res.body).toBe(200);
    const [institute] = await t.database.db
      .select({ state: institutes.adhesionState })
      .from(institutes)
      .where(eq(institutes.id, school.instituteId));
    expect(institute!.state).toBe('attivo');
    expect(await mailsTo('dirigente@demo.test', 'email.revisione-adesione-approvata')).toHaveLength(1);
    expect(await mailsTo('referente@demo.test', 'email.revisione-adesione-approvata')).toHaveLength(1);
    const transitions = (await t.database.db.execute(
      sql`select to_state from institute_adhesion_transitions where institute_id = ${school.instituteId} order by id desc limit 1`,
    )) as unknown as { rows: { to_state: string }[] };
    expect(transitions.rows[0]!.to_state).toBe('attivo');
  });

  it('adesioni: request changes sends the institute back to signing with the note and the link', async () => {
    const school = schools.get('PVIC81000B')!;
    const res = await decide(cromos(), 'adesioni', school.reviewId, {
      decision: 'request_changes',
      note: 'Il documento non riporta il plesso di via Roma.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [institute] = await t.database.db
      .select({ state: institutes.adhesionState })
      .from(institutes)
      .where(eq(institutes.id, school.instituteId));
    expect(institute!.state).toBe('da_correggere');
    const [mail] = await mailsTo('preside.nord@esempio.it', 'email.revisione-adesione-da-correggere');
    expect(mail!.text).toContain('via Roma');
    expect(mail!.text).toContain('/iscrizioni/adesione-formale');
  });

  it('adesioni: reject, and an institute no longer «adesione firmata» is a 409 that changes nothing', async () => {
    const school = schools.get('PVIC82000C')!;
    await t.database.db
      .update(institutes)
      .set({ adhesionState: 'iscritto' })
      .where(eq(institutes.id, school.instituteId));
    const refused = await decide(sylla(), 'adesioni', school.reviewId, { decision: 'approve' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toMatch(/non può passare/);
    expect((await reviewRow(school.reviewId)).state).toBe('in_attesa');
    expect(await mailsTo('preside.sud@esempio.it', 'email.revisione-adesione-approvata')).toHaveLength(0);

    await t.database.db
      .update(institutes)
      .set({ adhesionState: 'adesione_firmata' })
      .where(eq(institutes.id, school.instituteId));
    const res = await decide(sylla(), 'adesioni', school.reviewId, {
      decision: 'reject',
      note: 'Istituto non statale.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [institute] = await t.database.db
      .select({ state: institutes.adhesionState })
      .from(institutes)
      .where(eq(institutes.id, school.instituteId));
    expect(institute!.state).toBe('respinto');
    expect(await mailsTo('preside.sud@esempio.it', 'email.revisione-adesione-respinta')).toHaveLength(1);
  });

  it('the counts follow the decisions', async () => {
    const body = ReviewListResponseSchema.parse((await sylla().get('/api/reviews/adesioni')).json());
    expect(body.counts).toEqual({ in_attesa: 0, approvata: 1, da_correggere: 1, respinta: 1 });
    const next = ReviewNextResponseSchema.parse((await sylla().get('/api/reviews/adesioni/next')).json());
    expect(next).toEqual({ item: null, pending: 0 });
  });
});

describe('registration enters the queue', () => {
  it('a new teacher registration waits in the insegnanti queue', async () => {
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    const res = await guest.post('/api/registrations', {
      kind: 'altro',
      firstName: 'Ettore',
      lastName: 'Nuovo',
      email: 'ettore.nuovo@esempio.it',
      phone: '+39 333 765 4321',
      password: 'Quaderno-Girasole-47',
      subjects: [],
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(202);
    const list = ReviewListResponseSchema.parse(
      (await sylla().get('/api/reviews/insegnanti?q=ettore.nuovo')).json(),
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ title: 'Nuovo Ettore', state: 'in_attesa' });
  });
});
