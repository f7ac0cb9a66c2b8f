import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SUBSTITUTION_MESSAGES,
  SubstitutionCandidatesSchema,
  SubstitutionCreatedSchema,
  SubstitutionDecidedSchema,
  SubstitutionListResponseSchema,
  SubstitutionSummarySchema,
} from '@portale/shared/substitutions';
import {
  accessCodes,
  auditLog,
  institutes,
  outbox,
  passwordResets,
  roles,
  schoolSites,
  substitutions,
  surveys,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { applyDueSubstitutions } from './substitution-effects.ts';
import { seedDemoSubstitutions } from './substitutions-seed.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const ACCOUNTS = [
  'superadmin@demo.test',
  'sylla@demo.test',
  'cromos@demo.test',
  'rilevatore@demo.test',
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
  'altro.referente@demo.test',
];
const referente = () => as('referente@demo.test');
const dirigente = () => as('dirigente@demo.test');
const other = () => as('altro.referente@demo.test');
const sylla = () => as('sylla@demo.test');
const admin = () => as('superadmin@demo.test');

let siteA: number;
let siteA2: number;
let siteB: number;
const teacher: Record<string, number> = {};
let surveyId: number;

async function addUser(
  email: string,
  firstName: string,
  lastName: string,
  role?: string,
  profile?: { siteId: number | null; kind?: 'insegnante' | 'educatore' },
) {
  const db = t.database.db;
  const [demo] = await db.select().from(users).where(eq(users.email, 'referente@demo.test'));
  const [created] = await db
    .insert(users)
    .values({
      email,
      firstName,
      lastName,
      passwordHash: demo!.passwordHash,
      phone: '+393330000111',
      emailVerifiedAt: demo!.emailVerifiedAt,
      phoneVerifiedAt: demo!.phoneVerifiedAt,
    })
    .returning({ id: users.id });
  if (role) {
    const [r] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
    await db.insert(userRoles).values({ userId: created!.id, roleId: r!.id });
  }
  if (profile)
    await db.insert(teacherProfiles).values({
      userId: created!.id,
      kind: profile.kind ?? 'insegnante',
      schoolSiteId: profile.siteId,
      reviewState: 'approvata',
    });
  return created!.id;
}

async function addSite(instituteId: number, i: number) {
  const [site] = await t.database.db
    .insert(schoolSites)
    .values({
      ministryCode: `SB${String(i).padStart(8, '0')}`,
      instituteId,
      name: `Plesso sostituzioni ${i}`,
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      address: `Via Verdi ${i}`,
      postalCode: '00100',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
      participating: true,
    })
    .returning({ id: schoolSites.id });
  return site!.id;
}

const request = (outgoing: number, overrides: Record<string, unknown> = {}) => ({
  schoolSiteId: siteA,
  outgoingUserId: outgoing,
  incomingEmail: 'nuova.docente@esempio.it',
  incomingFirstName: 'Nadia',
  incomingLastName: 'Nuovi',
  reason: 'Trasferimento ad altra sede dal mese prossimo.',
  effectiveOn: '2026-12-01',
  ...overrides,
});

async function mails(recipient: string, templateKey: string) {
  return t.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.templateKey, templateKey)));
}

beforeAll(async () => {
  t = await buildTestApp();
  const db = t.database.db;
  const [a] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.ministryCode, 'RMIC8AB00X'));
  const [b] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.ministryCode, 'RMIC8AC00Y'));
  siteA = await addSite(a!.id, 1);
  siteA2 = await addSite(a!.id, 2);
  siteB = await addSite(b!.id, 3);
  // Another institute's first contact (institute B), with the demo password.
  const otherContact = await addUser(
    'altro.referente@demo.test',
    'Alba',
    'Altrove',
    'institute.first-contact',
  );
  await db.update(institutes).set({ firstContactUserId: otherContact }).where(eq(institutes.id, b!.id));
  teacher.out1 = await addUser('uscente.uno@demo.test', 'Ugo', 'Uscente', 'teacher', { siteId: siteA });
  teacher.out2 = await addUser('uscente.due@demo.test', 'Ugo', 'Secondo', 'teacher', {
    siteId: siteA,
    kind: 'educatore',
  });
  teacher.out3 = await addUser('uscente.tre@demo.test', 'Ugo', 'Terzo', 'teacher', { siteId: siteA });
  teacher.out4 = await addUser('uscente.quattro@demo.test', 'Ugo', 'Quarto', 'teacher', { siteId: siteA });
  teacher.a2 = await addUser('collega.a2@demo.test', 'Carla', 'Collega', 'teacher', { siteId: siteA2 });
  teacher.b = await addUser('insegnante.b@demo.test', 'Bruno', 'Beta', 'teacher', { siteId: siteB });
  teacher.noProfile = await addUser('senza.profilo@demo.test', 'Sara', 'Senzaprofilo');
  await addUser('omonimo.uno@demo.test', 'Ugo', 'Omonimo', 'teacher', { siteId: siteA });
  await addUser('omonimo.due@demo.test', 'Ugo', 'Omonimo', 'teacher', { siteId: siteA });
  teacher.rejected = await addUser('respinto@demo.test', 'Rino', 'Respinto', 'teacher', { siteId: siteA });
  await db
    .update(teacherProfiles)
    .set({ reviewState: 'respinta' })
    .where(eq(teacherProfiles.userId, teacher.rejected));
  const [survey] = await db
    .insert(surveys)
    .values({
      slug: 'sostituzioni-prova',
      title: 'Indagine di prova',
      purpose: 'Prova',
      audience: 'insegnanti',
      opensOn: '2026-11-01',
      closesOn: '2026-12-31',
    })
    .returning({ id: surveys.id });
  surveyId = survey!.id;
  const expiresAt = new Date('2027-01-31T00:00:00Z');
  await db.insert(accessCodes).values([
    {
      code: 'SUBaaa1',
      surveyId,
      schoolSiteId: siteA,
      classLabel: '3A',
      ownerUserId: teacher.out1,
      maxUses: 30,
      expiresAt,
    },
    {
      code: 'SUBaaa2',
      surveyId,
      schoolSiteId: siteA,
      classLabel: '4B',
      ownerUserId: teacher.out1,
      maxUses: 30,
      expiresAt,
    },
    // A code of the same teacher in another plesso does not move.
    {
      code: 'SUBaaa3',
      surveyId,
      schoolSiteId: siteA2,
      classLabel: '1C',
      ownerUserId: teacher.out1,
      maxUses: 30,
      expiresAt,
    },
  ]);
  for (const email of ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    await client.login(email);
    clients.set(email, client);
  }
}, 180_000);
afterAll(() => t.close());

describe('requests (principal, first contact)', () => {
  let firstId: number;

  it('a guest gets 401, staff and teachers 403', async () => {
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect((await guest.post('/api/substitutions', request(teacher.out1!))).statusCode).toBe(401);
    expect((await guest.get('/api/substitutions')).statusCode).toBe(401);
    for (const email of [
      'sylla@demo.test',
      'superadmin@demo.test',
      'cromos@demo.test',
      'insegnante@demo.test',
      'rilevatore@demo.test',
    ]) {
      expect((await as(email).post('/api/substitutions', request(teacher.out1!))).statusCode, email).toBe(
        403,
      );
    }
  });

  it('offers the institute’s plessi and teachers to the first contact only', async () => {
    const res = await referente().get('/api/substitutions/candidates');
    expect(res.statusCode).toBe(200);
    const { sites } = SubstitutionCandidatesSchema.parse(res.json());
    expect(sites.map((s) => s.id)).toEqual(expect.arrayContaining([siteA, siteA2]));
    expect(sites.map((s) => s.id)).not.toContain(siteB);
    const teachersOfA = sites.find((s) => s.id === siteA)!.teachers;
    expect(teachersOfA.map((x) => x.userId)).toEqual(expect.arrayContaining([teacher.out1, teacher.out2]));
    // Two teachers with the same name are told apart by their e-mail; a rejected teacher is not offered.
    const namesakes = teachersOfA.filter((x) => x.name === 'Omonimo Ugo');
    expect(namesakes.map((x) => x.email).sort()).toEqual(['omonimo.due@demo.test', 'omonimo.uno@demo.test']);
    expect(teachersOfA.map((x) => x.userId)).not.toContain(teacher.rejected);
    expect(
      (await referente().post('/api/substitutions', request(teacher.rejected!))).json().errors.outgoingUserId,
    ).toBeDefined();
    expect((await sylla().get('/api/substitutions/candidates')).statusCode).toBe(403);
  });

  it('the first contact asks for a substitution with an invited address: 201, audited', async () => {
    const res = await referente().post('/api/substitutions', request(teacher.out1!));
    expect(res.statusCode, res.body).toBe(201);
    const { substitution } = SubstitutionCreatedSchema.parse(res.json());
    firstId = substitution.id;
    expect(substitution).toMatchObject({
      state: 'richiesta',
      schoolSiteId: siteA,
      outgoingUserId: teacher.out1,
      incomingUserId: null,
      incomingEmail: 'nuova.docente@esempio.it',
      incomingName: 'Nuovi Nadia',
      effectiveOn: '2026-12-01',
      requestedByName: 'Renato Referente',
    });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'substitution.requested'), eq(auditLog.entityId, String(firstId))));
    expect(audit).toHaveLength(1);
  });

  it('a second open request for the same teacher and plesso is a 409', async () => {
    const res = await dirigente().post(
      '/api/substitutions',
      request(teacher.out1!, { incomingEmail: 'altra@esempio.it' }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/già una richiesta/);
  });

  it('refuses bad input with per-field Italian messages', async () => {
    let res = await referente().post(
      '/api/substitutions',
      request(teacher.out2!, { effectiveOn: '2026-11-20' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.effectiveOn[0]).toMatch(/passato/);
    res = await referente().post('/api/substitutions', {
      schoolSiteId: siteA,
      outgoingUserId: teacher.out2,
      reason: 'x',
      effectiveOn: '31/12/2026',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(
      expect.arrayContaining(['incomingEmail', 'reason', 'effectiveOn']),
    );
    res = await referente().post('/api/substitutions', request(teacher.out2!, { incomingFirstName: '' }));
    expect(res.json().errors.incomingFirstName).toBeDefined();
    // The outgoing person must be a teacher of that plesso (a teacher of another plesso, or no teacher at all).
    res = await referente().post('/api/substitutions', request(teacher.a2!));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.outgoingUserId[0]).toMatch(/non risulta/);
    res = await referente().post('/api/substitutions', request(teacher.b!));
    expect(res.statusCode).toBe(422);
    // Today (Rome) is accepted.
    res = await referente().post(
      '/api/substitutions',
      request(teacher.out4!, { effectiveOn: '2026-11-21', incomingEmail: 'oggi@esempio.it' }),
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it('another institute’s plesso is a 403, an unknown plesso a 404; no IDOR on the incoming teacher', async () => {
    expect((await other().post('/api/substitutions', request(teacher.out2!))).statusCode).toBe(403);
    expect(
      (await referente().post('/api/substitutions', request(teacher.b!, { schoolSiteId: siteB }))).statusCode,
    ).toBe(403);
    expect(
      (await referente().post('/api/substitutions', request(teacher.out2!, { schoolSiteId: 987_654_321 })))
        .statusCode,
    ).toBe(404);
    // An incoming teacher by id must be a teacher of the same institute.
    const res = await referente().post(
      '/api/substitutions',
      request(teacher.out2!, {
        incomingEmail: undefined,
        incomingFirstName: undefined,
        incomingLastName: undefined,
        incomingUserId: teacher.b,
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.incomingUserId).toBeDefined();
  });

  it('another institute’s first contact cannot read the request (403), nor see it in their list', async () => {
    expect((await other().get(`/api/substitutions/${firstId}`)).statusCode).toBe(403);
    expect((await referente().get(`/api/substitutions/${firstId}`)).statusCode).toBe(200);
    expect((await dirigente().get(`/api/substitutions/${firstId}`)).statusCode).toBe(200);
    expect((await referente().get('/api/substitutions/987654321')).statusCode).toBe(404);
    const list = SubstitutionListResponseSchema.parse((await other().get('/api/substitutions')).json());
    expect(list.total).toBe(0);
    const own = SubstitutionListResponseSchema.parse((await referente().get('/api/substitutions')).json());
    expect(own.items.map((s) => s.id)).toContain(firstId);
    expect((await as('insegnante@demo.test').get('/api/substitutions')).statusCode).toBe(403);
    expect((await as('cromos@demo.test').get(`/api/substitutions/${firstId}`)).statusCode).toBe(403);
  });
});

describe('the staff list and export', () => {
  it('searches, filters, sorts and pages; bad filters are a 422', async () => {
    let list = SubstitutionListResponseSchema.parse(
      (
        await sylla().get(
          '/api/substitutions?q=uscente&state=richiesta&region=Lazio&sort=-effectiveOn&pageSize=25',
        )
      ).json(),
    );
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.items.every((s) => s.state === 'richiesta' && s.region === 'Lazio')).toBe(true);
    list = SubstitutionListResponseSchema.parse(
      (await admin().get('/api/substitutions?q=nuovi%20nadia')).json(),
    );
    expect(list.items.map((s) => s.incomingEmail)).toContain('nuova.docente@esempio.it');
    list = SubstitutionListResponseSchema.parse(
      (await sylla().get('/api/substitutions?state=approvata')).json(),
    );
    expect(list.items.every((s) => s.state === 'approvata')).toBe(true);
    const bad = await sylla().get('/api/substitutions?state=chiusa&sort=colore');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['state', 'sort']));
  });

  it('exports CSV with a header and one row per request; only staff', async () => {
    const res = await sylla().get('/api/substitutions/export?format=csv&state=richiesta');
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toContain('Insegnante uscente');
    const total = SubstitutionListResponseSchema.parse(
      (await sylla().get('/api/substitutions?state=richiesta')).json(),
    ).total;
    expect(lines.length - 1).toBe(total);
    expect((await sylla().get('/api/substitutions/export?format=xlsx')).statusCode).toBe(200);
    expect((await referente().get('/api/substitutions/export')).statusCode).toBe(403);
    expect((await as('cromos@demo.test').get('/api/substitutions/export')).statusCode).toBe(403);
  });
});

describe('decisions', () => {
  async function open(outgoing: number, overrides: Record<string, unknown> = {}) {
    const res = await referente().post('/api/substitutions', request(outgoing, overrides));
    expect(res.statusCode, res.body).toBe(201);
    return SubstitutionCreatedSchema.parse(res.json()).substitution.id;
  }

  it('only deciders decide: 401 guest, 403 first contact and cromos, 404 unknown, 422 reject without a note', async () => {
    const id = (
      await t.database.db
        .select({ id: substitutions.id })
        .from(substitutions)
        .where(eq(substitutions.outgoingUserId, teacher.out4!))
    )[0]!.id;
    const guest = new ApiClient(t, nextIp());
    await guest.csrf();
    expect(
      (await guest.post(`/api/substitutions/${id}/decision`, { decision: 'approvata' })).statusCode,
    ).toBe(401);
    expect(
      (await referente().post(`/api/substitutions/${id}/decision`, { decision: 'approvata' })).statusCode,
    ).toBe(403);
    expect(
      (await as('cromos@demo.test').post(`/api/substitutions/${id}/decision`, { decision: 'approvata' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await sylla().post('/api/substitutions/987654321/decision', { decision: 'approvata' })).statusCode,
    ).toBe(404);
    const res = await sylla().post(`/api/substitutions/${id}/decision`, { decision: 'respinta', note: '  ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.note[0]).toMatch(/nota/);
  });

  it('rejects with a note: the requester is told, nothing moves, a second decision is a 409', async () => {
    const id = (
      await t.database.db
        .select({ id: substitutions.id })
        .from(substitutions)
        .where(eq(substitutions.outgoingUserId, teacher.out4!))
    )[0]!.id;
    const res = await admin().post(`/api/substitutions/${id}/decision`, {
      decision: 'respinta',
      note: 'Manca la lettera di trasferimento.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(SubstitutionDecidedSchema.parse(res.json()).substitution).toMatchObject({
      state: 'respinta',
      decisionNote: 'Manca la lettera di trasferimento.',
      decidedByName: 'Silvia Amministratrice',
    });
    const [mail] = await mails('referente@demo.test', 'email.sostituzione-respinta');
    expect(mail!.textBody).toContain('Manca la lettera di trasferimento.');
    const [profile] = await t.database.db
      .select()
      .from(teacherProfiles)
      .where(eq(teacherProfiles.userId, teacher.out4!));
    expect(profile!.schoolSiteId).toBe(siteA);
    expect(
      (await sylla().post(`/api/substitutions/${id}/decision`, { decision: 'approvata' })).statusCode,
    ).toBe(409);
    // Decided: a new request for the same teacher is possible again.
    await open(teacher.out4!, { incomingEmail: 'ancora@esempio.it' });
  });

  it('approves an invited address ahead of its date: the user is created and invited now; profile and codes move on the date (decision 038), audited', async () => {
    const id = (
      await t.database.db
        .select({ id: substitutions.id })
        .from(substitutions)
        .where(and(eq(substitutions.outgoingUserId, teacher.out1!), eq(substitutions.state, 'richiesta')))
    )[0]!.id;
    const res = await sylla().post(`/api/substitutions/${id}/decision`, { decision: 'approvata' });
    expect(res.statusCode, res.body).toBe(200);
    const decided = SubstitutionDecidedSchema.parse(res.json());
    expect(decided.message).toBe(SUBSTITUTION_MESSAGES.approvedFrom('01/12/2026'));
    expect(decided.substitution).toMatchObject({
      state: 'approvata',
      effectiveOn: '2026-12-01',
      appliedAt: null,
    });
    const db = t.database.db;
    const [created] = await db.select().from(users).where(eq(users.email, 'nuova.docente@esempio.it'));
    expect(created).toMatchObject({ firstName: 'Nadia', lastName: 'Nuovi' });
    expect(decided.substitution.incomingUserId).toBe(created!.id);
    const [reset] = await db.select().from(passwordResets).where(eq(passwordResets.userId, created!.id));
    expect(reset!.expiresAt.getTime() - reset!.createdAt.getTime()).toBe(7 * 24 * 60 * 60_000);
    const [invite] = await mails('nuova.docente@esempio.it', 'email.sostituzione-invito');
    expect(invite!.textBody).toMatch(/reset-password\?token=/);
    expect(await mails('uscente.uno@demo.test', 'email.sostituzione-uscente')).toHaveLength(1);
    expect(await mails('referente@demo.test', 'email.sostituzione-approvata')).toHaveLength(1);
    const [approvedAudit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'substitution.approved'), eq(auditLog.entityId, String(id))));
    expect(approvedAudit!.after).toMatchObject({
      incomingUserId: created!.id,
      createdUserId: created!.id,
      applied: false,
      accessCodeIds: [],
    });

    // Until 1 December the outgoing teacher stays in the plesso with their codes; the incoming one is not placed.
    const codesNow = async () =>
      Object.fromEntries(
        (
          await db
            .select({ code: accessCodes.code, owner: accessCodes.ownerUserId })
            .from(accessCodes)
            .where(eq(accessCodes.surveyId, surveyId))
        ).map((c) => [c.code, c.owner]),
      );
    const siteOf = async (userId: number) =>
      (
        await db
          .select({ site: teacherProfiles.schoolSiteId })
          .from(teacherProfiles)
          .where(eq(teacherProfiles.userId, userId))
      )[0]?.site;
    expect(await siteOf(teacher.out1!)).toBe(siteA);
    expect(await siteOf(created!.id)).toBeUndefined();
    expect(await codesNow()).toEqual({ SUBaaa1: teacher.out1, SUBaaa2: teacher.out1, SUBaaa3: teacher.out1 });
    // A second request for the same teacher while this one waits for its date is refused.
    const again = await dirigente().post(
      '/api/substitutions',
      request(teacher.out1!, { incomingEmail: 'terza@esempio.it' }),
    );
    expect(again.statusCode).toBe(409);

    // The scheduled job: 30 November 23:59 in Rome is still too early; midnight of 1 December applies it, once.
    expect(await applyDueSubstitutions(db, new Date('2026-11-30T22:59:00Z'))).toBe(0);
    expect(await siteOf(teacher.out1!)).toBe(siteA);
    expect(await applyDueSubstitutions(db, new Date('2026-11-30T23:00:00Z'))).toBe(1);
    expect(await applyDueSubstitutions(db, new Date('2026-11-30T23:30:00Z'))).toBe(0);
    const [incomingProfile] = await db
      .select()
      .from(teacherProfiles)
      .where(eq(teacherProfiles.userId, created!.id));
    expect(incomingProfile).toMatchObject({
      schoolSiteId: siteA,
      kind: 'insegnante',
      reviewState: 'approvata',
    });
    const roleNames = await db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, created!.id));
    expect(roleNames.map((r) => r.name)).toEqual(['teacher']);
    expect(await siteOf(teacher.out1!)).toBeNull();
    expect(await codesNow()).toEqual({ SUBaaa1: created!.id, SUBaaa2: created!.id, SUBaaa3: teacher.out1 });
    const applied = SubstitutionSummarySchema.parse((await sylla().get(`/api/substitutions/${id}`)).json());
    expect(applied.appliedAt).toBe('2026-11-30T23:00:00.000Z');
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'substitution.applied'), eq(auditLog.entityId, String(id))));
    expect(audit!.actorUserId).toBeNull();
    expect((audit!.after as { accessCodeIds: number[] }).accessCodeIds).toHaveLength(2);
  });

  it('approves an existing user without a profile: profile with the outgoing kind, role given, e-mail without a link', async () => {
    // Effective today (Rome): it takes effect at approval.
    const id = await open(teacher.out2!, {
      incomingEmail: 'SENZA.profilo@demo.test',
      effectiveOn: '2026-11-21',
    });
    const detail = SubstitutionSummarySchema.parse((await sylla().get(`/api/substitutions/${id}`)).json());
    expect(detail.incomingUserId).toBe(teacher.noProfile);
    const decided = await sylla().post(`/api/substitutions/${id}/decision`, {
      decision: 'approvata',
      note: 'Documentazione completa.',
    });
    expect(decided.statusCode).toBe(200);
    expect(SubstitutionDecidedSchema.parse(decided.json())).toMatchObject({
      message: SUBSTITUTION_MESSAGES.approved,
      substitution: { appliedAt: t.clock.now().toISOString() },
    });
    const db = t.database.db;
    const [profile] = await db
      .select()
      .from(teacherProfiles)
      .where(eq(teacherProfiles.userId, teacher.noProfile!));
    expect(profile).toMatchObject({ schoolSiteId: siteA, kind: 'educatore' });
    const roleNames = await db
      .select({ name: roles.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, teacher.noProfile!));
    expect(roleNames.map((r) => r.name)).toContain('educator');
    expect(await mails('senza.profilo@demo.test', 'email.sostituzione-entrante')).toHaveLength(1);
    expect(
      await db.select().from(passwordResets).where(eq(passwordResets.userId, teacher.noProfile!)),
    ).toHaveLength(0);
  });

  it('approves a colleague of another plesso of the institute: their profile moves', async () => {
    const id = await open(teacher.out3!, {
      incomingEmail: undefined,
      incomingFirstName: undefined,
      incomingLastName: undefined,
      incomingUserId: teacher.a2,
      effectiveOn: '2026-11-21',
    });
    expect(
      (await admin().post(`/api/substitutions/${id}/decision`, { decision: 'approvata' })).statusCode,
    ).toBe(200);
    const [profile] = await t.database.db
      .select()
      .from(teacherProfiles)
      .where(eq(teacherProfiles.userId, teacher.a2!));
    expect(profile!.schoolSiteId).toBe(siteA);
  });

  it('two simultaneous decisions: one 200 and one 409, one outcome', async () => {
    const out = await addUser('uscente.cinque@demo.test', 'Ugo', 'Quinto', 'teacher', { siteId: siteA });
    const id = await open(out, { incomingEmail: 'corsa@esempio.it' });
    const [a, b] = await Promise.all([
      sylla().post(`/api/substitutions/${id}/decision`, { decision: 'approvata' }),
      admin().post(`/api/substitutions/${id}/decision`, { decision: 'respinta', note: 'No.' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const decided = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(
        and(
          sql`${auditLog.action} in ('substitution.approved', 'substitution.rejected')`,
          eq(auditLog.entityId, String(id)),
        ),
      );
    expect(decided[0]!.n).toBe(1);
  });
});

describe('demo seed', () => {
  it('adds one waiting and one rejected request in the demo first contact’s plesso, once', async () => {
    const db = t.database.db;
    await seedDemoSubstitutions(db, t.clock.now());
    await seedDemoSubstitutions(db, t.clock.now());
    const rows = await db
      .select({ state: substitutions.state, email: users.email })
      .from(substitutions)
      .innerJoin(users, eq(users.id, substitutions.outgoingUserId))
      .where(sql`${users.email} like 'insegnante.sostituzioni-%'`);
    expect(rows.map((r) => `${r.email} ${r.state}`).sort()).toEqual([
      'insegnante.sostituzioni-01@demo.test richiesta',
      'insegnante.sostituzioni-02@demo.test respinta',
    ]);
    const list = SubstitutionListResponseSchema.parse(
      (await referente().get('/api/substitutions?q=moretti')).json(),
    );
    expect(list.items).toHaveLength(1);
    // The demo teachers log in with the demo password.
    const client = new ApiClient(t, nextIp());
    expect((await client.login('insegnante.sostituzioni-04@demo.test')).statusCode).toBe(200);
  });
});
