import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CurrentAdhesionSchema,
  SchoolHomeSchema,
  SignatureResultSchema,
  type CurrentAdhesion,
} from '@portale/shared/adhesions';
import type { AdhesionState } from '@portale/shared/registry';
import {
  adhesionSignatures,
  auditLog,
  institutes,
  outbox,
  reviews,
  roles,
  schoolSites,
  teacherProfiles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { DEMO_PASSWORD } from '../../seed/seed.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { seedMessageTemplates } from '../../seed/message-templates.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { startRevocationServer, type RevocationServer } from '../../../test/support/revocation-fixtures.ts';
import {
  createTestCa,
  issueSignerCertificate as issueWithoutRevocation,
  makeTestPdf,
  signCades as signCadesAt,
  signCadesDetached,
  signPades,
  type SignOptions,
  type TestCa,
  type TestSigner,
} from '../../../test/support/signing-fixtures.ts';
import {
  createListOperator,
  signTrustedList,
  trustedListXml,
  writeTrustedList,
  type TrustedListFiles,
} from '../../../test/support/trusted-list-fixtures.ts';
import { renderAdhesionDocument } from './adhesion-document.ts';
import { DEFAULT_DOCUMENT_TEMPLATE } from './adhesion-document.ts';
import { findAdhesionData } from './adhesions.repository.ts';
import { seedDemoAdhesion } from './adhesion-signing.service.ts';
import { SIGNED_UPLOAD_MAX_BYTES } from './signature-verification.ts';

let t: TestApp;
let ca: TestCa;
/** A CA made on a laptop, and one whose qualified service the list says was withdrawn. */
let laptopCa: TestCa;
let withdrawnCa: TestCa;
let list: TrustedListFiles;
/** The OCSP responder and CRL of `ca` on 127.0.0.1, answering at the test clock's time. */
let revocation: RevocationServer;
let passwordHash: string;
const db = () => t.database.db;

beforeAll(async () => {
  const operator = await createListOperator();
  [ca, laptopCa, withdrawnCa] = await Promise.all([
    createTestCa(),
    createTestCa({ name: 'CA fatta su un portatile' }),
    createTestCa({ name: 'CA ritirata' }),
  ]);
  const xml = trustedListXml([
    { ca, name: 'Firma digitale qualificata di test' },
    {
      ca: withdrawnCa,
      name: 'Servizio ritirato',
      history: [
        { status: 'withdrawn', from: new Date('2026-01-01T00:00:00Z') },
        { status: 'granted', from: new Date('2016-07-01T00:00:00Z') },
      ],
    },
  ]);
  // The development configuration: a list file and the list operator's certificate (decision 032).
  list = writeTrustedList(signTrustedList(xml, operator), operator);
  t = await buildTestApp(list.env);
  revocation = await startRevocationServer(ca, () => t.clock.now());
  await seedMessageTemplates(t.database.db);
  passwordHash = await hashPassword(DEMO_PASSWORD);
}, 120_000);
afterAll(async () => {
  await revocation.close();
  await t.close();
  rmSync(list.dir, { recursive: true, force: true });
});

/** Signer certificates name the test CA's OCSP responder and CRL (as qualified certificates do). */
function issueSignerCertificate(issuer: TestCa, options: Parameters<typeof issueWithoutRevocation>[1]) {
  return issueWithoutRevocation(issuer, {
    ocspUrl: revocation.ocspUrl,
    crlUrl: revocation.crlUrl,
    ...options,
  });
}

/** CAdES with the signing time of the test clock (the portal refuses one after its receipt). */
function signCades(pdf: Uint8Array, signer: TestSigner, options: SignOptions = {}) {
  return signCadesAt(pdf, signer, { signingTime: t.clock.now(), ...options });
}

let seq = 0;

interface School {
  instituteId: number;
  ministryCode: string;
  principalId: number;
  principalEmail: string;
  principalPhone: string;
  principal: ApiClient;
  firstContactId: number | null;
  firstContact: ApiClient | null;
  siteIds: number[];
}

async function createUser(role: string, extra: Partial<typeof users.$inferInsert> = {}) {
  seq += 1;
  const [user] = await db()
    .insert(users)
    .values({
      email: `persona${seq}@scuola.test`,
      passwordHash,
      firstName: `Nome${seq}`,
      lastName: `Cognome${seq}`,
      phone: `+39333${String(seq).padStart(7, '0')}`,
      emailVerifiedAt: t.clock.now(),
      phoneVerifiedAt: t.clock.now(),
      ...extra,
    })
    .returning();
  const [r] = await db().select().from(roles).where(eq(roles.name, role));
  await db().insert(userRoles).values({ userId: user!.id, roleId: r!.id });
  return user!;
}

async function login(email: string) {
  const client = new ApiClient(t, nextIp());
  expect((await client.login(email)).statusCode, email).toBe(200);
  return client;
}

/** A fresh institute of its own with a principal (and optionally a first contact), two plessi (one participating). */
async function freshSchool(
  options: {
    state?: AdhesionState;
    taxCode?: string | null;
    firstContact?: boolean;
    phoneVerified?: boolean;
  } = {},
): Promise<School> {
  seq += 1;
  const ministryCode = `RMIC9${String(seq).padStart(3, '0')}0Z`;
  const [institute] = await db()
    .insert(institutes)
    .values({
      ministryCode,
      name: `Istituto comprensivo «Città di prova ${seq}»`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lazio',
      province: 'RM',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      address: 'Via dei Test 1',
      postalCode: '00100',
      certifiedEmail: `${ministryCode.toLowerCase()}@pec.istruzione.it`,
      adhesionState: options.state ?? 'iscritto',
    })
    .returning();
  const principal = await createUser('school.principal', {
    taxCode: options.taxCode === undefined ? 'RSSMRA80A01H501U' : options.taxCode,
    ...(options.phoneVerified === false ? { phoneVerifiedAt: null } : {}),
  });
  const firstContact = options.firstContact ? await createUser('institute.first-contact') : null;
  await db()
    .update(institutes)
    .set({ principalUserId: principal.id, firstContactUserId: firstContact?.id ?? null })
    .where(eq(institutes.id, institute!.id));
  const sites = await db()
    .insert(schoolSites)
    .values(
      [true, false].map((participating, i) => ({
        ministryCode: `${ministryCode.slice(0, 8)}${i}${i}`,
        instituteId: institute!.id,
        name: `Plesso ${i === 0 ? 'Garibaldi' : 'Mazzini'} ${seq}`,
        schoolLevel: 'primaria' as const,
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
        participating,
      })),
    )
    .returning({ id: schoolSites.id });
  return {
    instituteId: institute!.id,
    ministryCode,
    principalId: principal.id,
    principalEmail: principal.email,
    principalPhone: principal.phone!,
    principal: await login(principal.email),
    firstContactId: firstContact?.id ?? null,
    firstContact: firstContact ? await login(firstContact.email) : null,
    siteIds: sites.map((s) => s.id),
  };
}

async function current(client: ApiClient): Promise<CurrentAdhesion> {
  const res = await client.get('/api/adhesions/current');
  expect(res.statusCode, res.body).toBe(200);
  return CurrentAdhesionSchema.parse(res.json());
}

async function stateOf(instituteId: number) {
  const [row] = await db()
    .select({ state: institutes.adhesionState })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  return row!.state;
}

async function signatureCount(instituteId: number) {
  const rows = await db()
    .select({ id: adhesionSignatures.id })
    .from(adhesionSignatures)
    .where(eq(adhesionSignatures.instituteId, instituteId));
  return rows.length;
}

async function pendingReviews(instituteId: number) {
  return db()
    .select()
    .from(reviews)
    .where(
      and(eq(reviews.type, 'adesioni'), eq(reviews.subjectId, instituteId), eq(reviews.state, 'in_attesa')),
    );
}

/** The code of the newest signature SMS to a phone, read from the outbox. */
async function smsCode(phone: string): Promise<string> {
  const [row] = await db()
    .select({ text: outbox.textBody })
    .from(outbox)
    .where(and(eq(outbox.recipient, phone), eq(outbox.templateKey, 'sms.firma-adesione')))
    .orderBy(desc(outbox.id))
    .limit(1);
  return /\b(\d{6})\b/.exec(row!.text)![1]!;
}

async function askCode(school: School, sha?: string) {
  const documentSha256 = sha ?? (await current(school.principal)).document!.sha256;
  const res = await school.principal.post('/api/adhesions/current/signature-challenges', { documentSha256 });
  return { res, documentSha256 };
}

async function download(client: ApiClient): Promise<Buffer> {
  const res = await client.get('/api/adhesions/current/document.pdf');
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

function upload(
  client: ApiClient,
  bytes: Uint8Array,
  filename: string,
  type = filename.endsWith('.p7m') ? 'application/pkcs7-mime' : 'application/pdf',
) {
  return client.send(
    'POST',
    `/api/adhesions/current/signatures/upload?filename=${encodeURIComponent(filename)}`,
    {
      payload: Buffer.from(bytes),
      headers: { 'content-type': type },
    },
  );
}

async function expectNothingChanged(school: School, state: AdhesionState = 'iscritto') {
  expect(await stateOf(school.instituteId)).toBe(state);
  expect(await signatureCount(school.instituteId)).toBe(0);
  expect(await pendingReviews(school.instituteId)).toHaveLength(0);
}

describe('who may use the adhesion endpoints', () => {
  it('guests get 401 on every endpoint', async () => {
    for (const [method, url] of [
      ['GET', '/api/adhesions/current'],
      ['POST', '/api/adhesions/current/document'],
      ['GET', '/api/adhesions/current/document.pdf'],
      ['POST', '/api/adhesions/current/signature-challenges'],
      ['POST', '/api/adhesions/current/signatures/online'],
      ['POST', '/api/adhesions/current/signatures/upload?filename=a.pdf'],
      ['GET', '/api/adhesions/current/overview'],
      ['PUT', '/api/adhesions/current/school-sites'],
      ['GET', '/api/institutes/1/adhesion/document.pdf'],
      ['GET', '/api/institutes/1/adhesion/signed-file'],
    ] as const) {
      const guest = new ApiClient(t, nextIp());
      await guest.csrf();
      const res = await guest.send(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('a principal who has not signed uses the adhesion page endpoints (its guards, not the portal conditions), not the portal ones', async () => {
    const school = await freshSchool();
    expect((await school.principal.get('/api/adhesions/current')).statusCode).toBe(200);
    // The /portale home needs the signature (sign-principal-document), like the page.
    expect((await school.principal.get('/api/adhesions/current/overview')).json()).toMatchObject({
      statusCode: 403,
      code: 'principal_document_unsigned',
    });
  });

  it('a teacher or staff member has no institute of their own: 403 or 404', async () => {
    const teacher = await login('insegnante@demo.test');
    expect((await teacher.get('/api/adhesions/current')).statusCode).toBe(403);
    const staff = await login('sylla@demo.test');
    expect((await staff.get('/api/adhesions/current')).statusCode).toBe(404);
    expect(
      (await staff.post('/api/adhesions/current/signature-challenges', { documentSha256: 'a'.repeat(64) }))
        .statusCode,
    ).toBe(403);
  });
});

describe('the adhesion document', () => {
  it('is generated deterministically: the same data give the same bytes and version', async () => {
    const school = await freshSchool({ firstContact: true });
    const first = await current(school.principal);
    expect(first.document).toMatchObject({ version: 1 });
    expect(first.document!.sha256).toMatch(/^[0-9a-f]{64}$/);
    t.clock.advance(60_000);
    const again = await current(school.firstContact!);
    expect(again.document).toEqual(first.document);
    const prepared = CurrentAdhesionSchema.parse(
      (await school.firstContact!.post('/api/adhesions/current/document')).json(),
    );
    expect(prepared.document).toEqual(first.document);
    const bytes = await download(school.principal);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(first.document!.sha256);
    // Rendering twice from the same inputs gives identical bytes.
    const data = (await findAdhesionData(db(), school.instituteId))!;
    const at = new Date(first.document!.createdAt);
    const [a, b] = await Promise.all([
      renderAdhesionDocument(DEFAULT_DOCUMENT_TEMPLATE, data, at),
      renderAdhesionDocument(DEFAULT_DOCUMENT_TEMPLATE, data, at),
    ]);
    expect(a.sha256).toBe(b.sha256);
    expect(a.sha256).toBe(first.document!.sha256);
  });

  it('shows the institute data, the plessi, the people, and answers a PDF download with its ETag', async () => {
    const school = await freshSchool({ firstContact: true });
    const body = await current(school.firstContact!);
    expect(body.viewerRole).toBe('first-contact');
    expect(body.institute).toMatchObject({
      ministryCode: school.ministryCode,
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
      adhesionState: 'iscritto',
    });
    expect(body.institute.schoolSites).toHaveLength(1);
    expect(body.canSign).toBe(false);
    expect(body.canPrepare).toBe(true);
    expect(body.nextStep.code).toBe('wait-principal');
    const res = await school.firstContact!.get('/api/adhesions/current/document.pdf');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="adesione-${school.ministryCode}-v1.pdf"`,
    );
    expect(res.headers.etag).toBe(`"${body.document!.sha256}"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const cached = await school.firstContact!.get('/api/adhesions/current/document.pdf', {
      headers: { 'if-none-match': `"${body.document!.sha256}"` },
    });
    expect(cached.statusCode).toBe(304);
  });

  it('gets a new version when the data change, and the old one stays', async () => {
    const school = await freshSchool();
    const before = (await current(school.principal)).document!;
    t.clock.advance(3_600_000);
    await db()
      .update(institutes)
      .set({ address: 'Piazza Nuova 2' })
      .where(eq(institutes.id, school.instituteId));
    const after = (await current(school.principal)).document!;
    expect(after.version).toBe(2);
    expect(after.sha256).not.toBe(before.sha256);
    // A plesso that joins changes it too.
    await db().update(schoolSites).set({ participating: true }).where(eq(schoolSites.id, school.siteIds[1]!));
    const third = CurrentAdhesionSchema.parse(
      (await school.principal.post('/api/adhesions/current/document')).json(),
    );
    expect(third.document!.version).toBe(3);
    expect(third.institute.schoolSites).toHaveLength(2);
  });

  it('cannot be prepared once signed (409), and only owners download it', async () => {
    const referente = await login('referente@demo.test');
    const res = await referente.post('/api/adhesions/current/document');
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/solo quando l’istituto è iscritto/);
  });
});

describe('online signature', () => {
  it('happy path: code by SMS, signature with sha/IP/time, state adesione_firmata, review pending, e-mails', async () => {
    const school = await freshSchool({ firstContact: true });
    const { res, documentSha256 } = await askCode(school);
    expect(res.statusCode, res.body).toBe(201);
    const challenge = res.json<{ challengeId: string; phoneMasked: string; expiresInSeconds: number }>();
    expect(challenge.expiresInSeconds).toBe(600);
    expect(challenge.phoneMasked).toMatch(/^\+39 •••/);
    const code = await smsCode(school.principalPhone);
    const signed = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId: challenge.challengeId,
      code,
      documentSha256,
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const result = SignatureResultSchema.parse(signed.json());
    expect(result.adhesionState).toBe('adesione_firmata');
    expect(result.signature).toMatchObject({
      method: 'online',
      documentSha256,
      documentVersion: 1,
      signedAt: t.clock.now().toISOString(),
    });
    expect(await stateOf(school.instituteId)).toBe('adesione_firmata');
    const [row] = await db()
      .select()
      .from(adhesionSignatures)
      .where(eq(adhesionSignatures.instituteId, school.instituteId));
    expect(row).toMatchObject({
      method: 'online',
      documentSha256,
      ip: school.principal.remoteAddress,
      signerUserId: school.principalId,
      signedFile: null,
    });
    const pending = await pendingReviews(school.instituteId);
    expect(pending).toHaveLength(1);
    expect(pending[0]!.submissionId).toBe(row!.id);
    const mails = await db()
      .select()
      .from(outbox)
      .where(sql`${outbox.templateKey} like 'email.adesione-firmata%'`);
    expect(mails.filter((m) => m.recipient === school.principalEmail).map((m) => m.templateKey)).toEqual([
      'email.adesione-firmata',
    ]);
    expect(
      mails.some(
        (m) =>
          m.templateKey === 'email.adesione-firmata-referente' && m.textBody.includes(school.ministryCode),
      ),
    ).toBe(true);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'adhesion.signed'), eq(auditLog.entityId, String(school.instituteId))));
    expect(audit).toHaveLength(1);
    // The page now shows the signature and the next step; signing twice is a 409.
    const after = await current(school.principal);
    expect(after.lastSignature).toMatchObject({ id: result.signature.id });
    expect(after.nextStep.code).toBe('wait-review');
    expect(after.canSign).toBe(false);
    const again = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId: challenge.challengeId,
      code,
      documentSha256,
    });
    expect(again.statusCode).toBe(409);
    t.clock.advance(120_000);
    expect((await askCode(school, documentSha256)).res.statusCode).toBe(409);
    // The principal is let into /portale now and sees the school home.
    const home = await school.principal.get('/api/adhesions/current/overview');
    expect(home.statusCode, home.body).toBe(200);
    expect(SchoolHomeSchema.parse(home.json()).institute.adhesionState).toBe('adesione_firmata');
  });

  it('a wrong code counts the attempts; after five the code is dead even if right', async () => {
    const school = await freshSchool();
    const { res, documentSha256 } = await askCode(school);
    const { challengeId } = res.json<{ challengeId: string }>();
    const code = await smsCode(school.principalPhone);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      const r = await school.principal.post('/api/adhesions/current/signatures/online', {
        challengeId,
        code: wrong,
        documentSha256,
      });
      expect(r.statusCode).toBe(422);
      expect(r.json().code).toBe('code_invalid');
    }
    const r = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId,
      code,
      documentSha256,
    });
    expect(r.json()).toMatchObject({ statusCode: 422, code: 'code_exhausted' });
    await expectNothingChanged(school);
  });

  it('an expired code, a code of another principal, a changed document and a bad body change nothing', async () => {
    const school = await freshSchool();
    const other = await freshSchool();
    const { res, documentSha256 } = await askCode(school);
    const { challengeId } = res.json<{ challengeId: string }>();
    const code = await smsCode(school.principalPhone);
    // Resend throttle: a new code only after a minute.
    expect((await askCode(school, documentSha256)).res.statusCode).toBe(429);
    // Another principal cannot use this challenge (it is not theirs): 404.
    const otherSha = (await current(other.principal)).document!.sha256;
    expect(
      (
        await other.principal.post('/api/adhesions/current/signatures/online', {
          challengeId,
          code,
          documentSha256: otherSha,
        })
      ).statusCode,
    ).toBe(404);
    // The sha must be the one of the current document.
    const wrongSha = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId,
      code,
      documentSha256: 'b'.repeat(64),
    });
    expect(wrongSha.json()).toMatchObject({ statusCode: 409, code: 'document_changed' });
    expect(
      (
        await school.principal.post('/api/adhesions/current/signature-challenges', {
          documentSha256: 'c'.repeat(64),
        })
      ).statusCode,
    ).toBe(409);
    const bad = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId,
      code: '12ab',
      documentSha256,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.code).toBeDefined();
    t.clock.advance(11 * 60_000);
    const expired = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId,
      code,
      documentSha256,
    });
    expect(expired.json()).toMatchObject({ statusCode: 422, code: 'code_expired' });
    await expectNothingChanged(school);
  });

  it('the document changed after the code was sent: 409, sign the new one', async () => {
    const school = await freshSchool();
    const { res, documentSha256 } = await askCode(school);
    const { challengeId } = res.json<{ challengeId: string }>();
    const code = await smsCode(school.principalPhone);
    t.clock.advance(60_000);
    await db()
      .update(institutes)
      .set({ certifiedEmail: 'nuova@pec.istruzione.it' })
      .where(eq(institutes.id, school.instituteId));
    const fresh = await current(school.principal);
    expect(fresh.document!.sha256).not.toBe(documentSha256);
    const r = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId,
      code,
      documentSha256: fresh.document!.sha256,
    });
    expect(r.json()).toMatchObject({ statusCode: 409, code: 'document_changed' });
    await expectNothingChanged(school);
  });

  it('the first contact can never sign (403), a principal without a verified phone is told why', async () => {
    const school = await freshSchool({ firstContact: true, phoneVerified: false });
    const sha = (await current(school.firstContact!)).document!.sha256;
    expect(
      (
        await school.firstContact!.post('/api/adhesions/current/signature-challenges', {
          documentSha256: sha,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await school.firstContact!.post('/api/adhesions/current/signatures/online', {
          challengeId: crypto.randomUUID(),
          code: '123456',
          documentSha256: sha,
        })
      ).statusCode,
    ).toBe(403);
    expect((await upload(school.firstContact!, await makeTestPdf(), 'a.pdf')).statusCode).toBe(403);
    const view = await current(school.principal);
    expect(view.signBlockers.online).toMatch(/cellulare verificato/);
    const r = await school.principal.post('/api/adhesions/current/signature-challenges', {
      documentSha256: sha,
    });
    expect(r.json()).toMatchObject({ statusCode: 409, code: 'phone_unverified' });
    await expectNothingChanged(school);
  });

  it('da_correggere: the reviewer note is shown and the principal signs again', async () => {
    const school = await freshSchool({ state: 'da_correggere' });
    await db().insert(reviews).values({
      type: 'adesioni',
      subjectId: school.instituteId,
      state: 'da_correggere',
      submittedAt: t.clock.now(),
      decidedAt: t.clock.now(),
      note: 'Manca la PEC corretta.',
    });
    const view = await current(school.principal);
    expect(view.reviewNote).toMatchObject({ note: 'Manca la PEC corretta.', fields: [] });
    expect(view.nextStep.code).toBe('fix-and-sign');
    t.clock.advance(120_000);
    const { res, documentSha256 } = await askCode(school);
    const code = await smsCode(school.principalPhone);
    const r = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId: res.json().challengeId,
      code,
      documentSha256,
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(await stateOf(school.instituteId)).toBe('adesione_firmata');
  });

  it('da_correggere: the first contact corrects the plessi, the document becomes a new version, the principal signs it and it goes back to review with its history', async () => {
    const school = await freshSchool({ state: 'da_correggere', firstContact: true });
    const other = await freshSchool();
    await db()
      .insert(reviews)
      .values({
        type: 'adesioni',
        subjectId: school.instituteId,
        state: 'da_correggere',
        submittedAt: t.clock.now(),
        decidedAt: t.clock.now(),
        note: 'Manca il plesso Mazzini.',
        flaggedFields: ['schoolSites'],
      });
    const before = await current(school.firstContact!);
    expect(before.reviewNote).toMatchObject({ note: 'Manca il plesso Mazzini.', fields: ['schoolSites'] });
    expect(before.correctableSchoolSites!.map((s) => [s.id, s.participating])).toEqual([
      [school.siteIds[0], true],
      [school.siteIds[1], false],
    ]);
    const v1 = before.document!;
    // Who may: guest 401 (above); a teacher and staff 403; another institute's plesso 422; nothing chosen 422.
    expect(
      (
        await (
          await login('insegnante@demo.test')
        ).send('PUT', '/api/adhesions/current/school-sites', {
          payload: { schoolSiteIds: [school.siteIds[0]] },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await login('sylla@demo.test')
        ).send('PUT', '/api/adhesions/current/school-sites', {
          payload: { schoolSiteIds: [school.siteIds[0]] },
        })
      ).statusCode,
    ).toBe(403);
    const foreign = await school.firstContact!.send('PUT', '/api/adhesions/current/school-sites', {
      payload: { schoolSiteIds: [school.siteIds[0], other.siteIds[0]] },
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.schoolSiteIds).toEqual([
      'Tra i plessi scelti ce n’è uno che non appartiene all’istituto.',
    ]);
    expect(
      (
        await school.firstContact!.send('PUT', '/api/adhesions/current/school-sites', {
          payload: { schoolSiteIds: [] },
        })
      ).statusCode,
    ).toBe(422);
    expect((await current(school.principal)).document!.sha256).toBe(v1.sha256);
    // Outside da_correggere nothing is correctable (409, nothing changes).
    const refused = await other.principal.send('PUT', '/api/adhesions/current/school-sites', {
      payload: { schoolSiteIds: other.siteIds },
    });
    expect(refused.statusCode).toBe(409);
    expect((await current(other.principal)).institute.schoolSites).toHaveLength(1);

    const res = await school.firstContact!.send('PUT', '/api/adhesions/current/school-sites', {
      payload: { schoolSiteIds: school.siteIds },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = CurrentAdhesionSchema.parse(res.json());
    expect(after.institute.schoolSites.map((s) => s.id)).toEqual(school.siteIds);
    expect(after.document!.version).toBe(v1.version + 1);
    expect(after.document!.sha256).not.toBe(v1.sha256);
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'adhesion.data.corrected'),
          eq(auditLog.entityId, String(school.instituteId)),
        ),
      );
    expect(audit).toMatchObject({
      actorUserId: school.firstContactId,
      before: { schoolSiteIds: [school.siteIds[0]] },
      after: { schoolSiteIds: school.siteIds, documentVersion: v1.version + 1 },
    });

    // The principal signs the new version: it goes back to the queue; the earlier decision stays in the history.
    t.clock.advance(120_000);
    const { res: challenge, documentSha256 } = await askCode(school);
    expect(documentSha256).toBe(after.document!.sha256);
    const code = await smsCode(school.principalPhone);
    const signed = await school.principal.post('/api/adhesions/current/signatures/online', {
      challengeId: challenge.json().challengeId,
      code,
      documentSha256,
    });
    expect(signed.statusCode, signed.body).toBe(201);
    expect(await stateOf(school.instituteId)).toBe('adesione_firmata');
    expect((await current(school.principal)).lastSignature).toMatchObject({
      documentVersion: v1.version + 1,
    });
    const history = await db()
      .select({ state: reviews.state })
      .from(reviews)
      .where(and(eq(reviews.type, 'adesioni'), eq(reviews.subjectId, school.instituteId)));
    expect(history.map((h) => h.state).sort()).toEqual(['da_correggere', 'in_attesa']);
  });
});

describe('a principal of two institutes (issue 35, item 1)', () => {
  it('sees first the institute to sign, chooses the other, signs each; someone else’s institute is 403, an unknown one 404', async () => {
    const active = await freshSchool({ state: 'attivo' });
    const second = await freshSchool();
    // The active school's principal is named principal of the second school (enrolled with the same e-mail).
    await db()
      .update(institutes)
      .set({ principalUserId: active.principalId })
      .where(eq(institutes.id, second.instituteId));
    const view = await current(active.principal);
    expect(view.institute.id).toBe(second.instituteId);
    expect(view.canSign).toBe(true);
    expect(view.institutes.map((i) => [i.id, i.viewerRole]).sort()).toEqual(
      [
        [active.instituteId, 'principal'],
        [second.instituteId, 'principal'],
      ].sort(),
    );
    const chosen = CurrentAdhesionSchema.parse(
      (await active.principal.get(`/api/adhesions/current?istituto=${active.instituteId}`)).json(),
    );
    expect(chosen.institute).toMatchObject({ id: active.instituteId, adhesionState: 'attivo' });
    expect(chosen.canSign).toBe(false);
    expect(
      (await active.principal.get(`/api/adhesions/current?istituto=${(await freshSchool()).instituteId}`))
        .statusCode,
    ).toBe(403);
    expect((await active.principal.get('/api/adhesions/current?istituto=987654321')).statusCode).toBe(404);
    // Staff's grants do not make someone else's institute their own (the fuzzer found a 500 here).
    const admin = await login('superadmin@demo.test');
    for (const path of ['', '/overview', '/document.pdf']) {
      const res = await admin.get(`/api/adhesions/current${path}?istituto=${active.instituteId}`);
      expect(res.statusCode, path).toBe(403);
    }
    expect((await active.principal.get('/api/adhesions/current?istituto=abc')).statusCode).toBe(422);
    // Signing the second school, named explicitly.
    t.clock.advance(120_000);
    const sha = view.document!.sha256;
    const challenge = await active.principal.post(
      `/api/adhesions/current/signature-challenges?istituto=${second.instituteId}`,
      { documentSha256: sha },
    );
    expect(challenge.statusCode, challenge.body).toBe(201);
    const code = await smsCode(active.principalPhone);
    const signed = await active.principal.post(
      `/api/adhesions/current/signatures/online?istituto=${second.instituteId}`,
      { challengeId: challenge.json().challengeId, code, documentSha256: sha },
    );
    expect(signed.statusCode, signed.body).toBe(201);
    expect(await stateOf(second.instituteId)).toBe('adesione_firmata');
    expect(await stateOf(active.instituteId)).toBe('attivo');
  });
});

describe('upload of a digitally signed file', () => {
  it('accepts a valid PAdES file and keeps it for staff', async () => {
    const school = await freshSchool();
    const signer = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const signedPdf = await signPades(await download(school.principal), signer);
    const receivedAt = t.clock.now();
    const res = await upload(school.principal, signedPdf, 'adesione firmata.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const result = SignatureResultSchema.parse(res.json());
    expect(result.signature).toMatchObject({
      method: 'pades',
      signerTaxCode: 'RSSMRA80A01H501U',
      signedFileName: 'adesione firmata.pdf',
    });
    expect(await stateOf(school.instituteId)).toBe('adesione_firmata');
    expect(await pendingReviews(school.instituteId)).toHaveLength(1);
    const staff = await login('cromos@demo.test');
    const file = await staff.get(`/api/institutes/${school.instituteId}/adhesion/signed-file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(file.rawPayload, Buffer.from(signedPdf))).toBe(0);
    // The signed file is in the file store (decision 030): the row keeps its key and hash, not its bytes.
    const [stored] = await db()
      .select()
      .from(adhesionSignatures)
      .where(eq(adhesionSignatures.instituteId, school.instituteId));
    expect(stored).toMatchObject({
      signedFile: null,
      signedFileSha256: createHash('sha256').update(signedPdf).digest('hex'),
    });
    expect(stored!.signedFileKey).toMatch(/^[0-9a-f]{32}$/);
    // The evidence: what was verified, against which list, at which trusted time.
    expect(stored!.verificationReport).toMatchObject({
      format: 'pades',
      signer: { taxCode: 'RSSMRA80A01H501U' },
      qualified: { trustService: { name: 'Firma digitale qualificata di test', status: 'granted' } },
      trustedList: { source: list.file, territory: 'IT' },
      trustedTime: { at: receivedAt.toISOString(), source: 'receipt' },
      revocation: { status: 'good', source: 'ocsp', url: revocation.ocspUrl },
    });
    expect(stored!.signedAt).toEqual(receivedAt);
    const doc = await staff.get(`/api/institutes/${school.instituteId}/adhesion/document.pdf`);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers.etag).toBe(`"${result.signature.documentSha256}"`);
  });

  it('accepts a valid CAdES (.p7m) file', async () => {
    const school = await freshSchool();
    const signer = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const p7m = await signCades(await download(school.principal), signer);
    const res = await upload(school.principal, p7m, 'adesione.pdf.p7m');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().signature.method).toBe('cades');
    const staff = await login('sylla@demo.test');
    const file = await staff.get(`/api/institutes/${school.instituteId}/adhesion/signed-file`);
    expect(file.headers['content-type']).toBe('application/pkcs7-mime');
  });

  it('accepts a detached .p7s over the generated document, and PAdES with SubFilter adbe.pkcs7.detached labelled as such', async () => {
    const school = await freshSchool();
    const signer = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const p7s = await signCadesDetached(await download(school.principal), signer, {
      signingTime: t.clock.now(),
    });
    const res = await upload(school.principal, p7s, 'adesione.pdf.p7s', 'application/pkcs7-signature');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().signature.method).toBe('cades');
    const [stored] = await db()
      .select()
      .from(adhesionSignatures)
      .where(eq(adhesionSignatures.instituteId, school.instituteId));
    expect(stored!.verificationReport).toMatchObject({
      format: 'cades',
      formatDetail: 'cades-detached',
      subFilter: null,
    });
    const staff = await login('sylla@demo.test');
    const file = await staff.get(`/api/institutes/${school.instituteId}/adhesion/signed-file`);
    expect(file.headers['content-type']).toBe('application/pkcs7-signature');

    const other = await freshSchool();
    const pkcs7 = await signPades(await download(other.principal), signer, {
      subFilter: 'adbe.pkcs7.detached',
    });
    const pdfRes = await upload(other.principal, pkcs7, 'adesione.pdf');
    expect(pdfRes.statusCode, pdfRes.body).toBe(201);
    const [pdfRow] = await db()
      .select()
      .from(adhesionSignatures)
      .where(eq(adhesionSignatures.instituteId, other.instituteId));
    expect(pdfRow!.verificationReport).toMatchObject({
      format: 'pades',
      formatDetail: 'pdf-pkcs7-detached',
      subFilter: 'adbe.pkcs7.detached',
    });
  });

  it('each failure answers the verifier’s Italian message and changes nothing', async () => {
    const school = await freshSchool();
    const document = await download(school.principal);
    const someoneElse = await issueSignerCertificate(ca, {
      name: 'Luigi Bianchi',
      taxCode: 'BNCLGU70B02F205X',
    });
    const right = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const tampered = Buffer.from(await signPades(document, right));
    tampered[200] = tampered[200]! ^ 0x01;
    const cases: [string, Uint8Array, string, string][] = [
      [
        'signer_mismatch',
        await signPades(document, someoneElse),
        'a.pdf',
        'La firma digitale non è del dirigente scolastico',
      ],
      [
        'document_mismatch',
        await signCades(await makeTestPdf('Un altro documento'), right),
        'a.p7m',
        'non corrisponde al documento di adesione',
      ],
      ['not_signed', document, 'a.pdf', 'non contiene una firma digitale'],
      ['signature_invalid', tampered, 'a.pdf', 'non è valida'],
      ['unsupported_format', new TextEncoder().encode('Questo non è un PDF'), 'a.pdf', 'formato supportato'],
    ];
    for (const [code, bytes, name, message] of cases) {
      const res = await upload(school.principal, bytes, name, 'application/octet-stream');
      expect(res.statusCode, `${code} ${res.body}`).toBe(422);
      expect(res.json().code, code).toBe(code);
      expect(res.json().message, code).toContain(message);
    }
    await expectNothingChanged(school);
  });

  it('refuses what is not a qualified signature at a time the portal can prove, each with its own code and Italian message', async () => {
    const school = await freshSchool();
    const document = await download(school.principal);
    const mario = { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' };
    const now = t.clock.now();
    const revokedSigner = await issueSignerCertificate(ca, mario);
    revocation.revoke(revokedSigner.certificate, new Date(now.getTime() - 60_000));
    const cases: [string, Uint8Array, string][] = [
      [
        'certificate_self_signed',
        await signPades(document, await issueSignerCertificate(ca, { ...mario, selfSigned: true })),
        'autofirmato',
      ],
      [
        'issuer_not_qualified',
        await signPades(document, await issueSignerCertificate(laptopCa, mario)),
        'Il certificato non è emesso da un prestatore qualificato',
      ],
      [
        'service_not_granted',
        await signCades(document, await issueSignerCertificate(withdrawnCa, mario)),
        'non era qualificato al momento della firma',
      ],
      [
        'certificate_not_qualified',
        await signCades(document, await issueSignerCertificate(ca, { ...mario, qcStatements: [] })),
        'QcCompliance',
      ],
      [
        'certificate_expired',
        await signCades(
          document,
          await issueSignerCertificate(ca, {
            ...mario,
            notBefore: new Date('2023-01-01T00:00:00Z'),
            notAfter: new Date(now.getTime() - 1000),
          }),
          { signingTime: null },
        ),
        'non era valido',
      ],
      ['certificate_revoked', await signCades(document, revokedSigner), 'revocato'],
      // The signing computer's clock set back to before the document existed.
      [
        'signing_time_untrusted',
        await signCades(document, await issueSignerCertificate(ca, mario), {
          signingTime: new Date('2024-06-01T10:00:00Z'),
        }),
        'non è attendibile',
      ],
    ];
    for (const [code, bytes, message] of cases) {
      const res = await upload(school.principal, bytes, 'a.pdf', 'application/octet-stream');
      expect(res.statusCode, `${code} ${res.body}`).toBe(422);
      expect(res.json().code, code).toBe(code);
      expect(res.json().message, code).toContain(message);
    }
    await expectNothingChanged(school);
  });

  it('a codice fiscale proved with CIE: the page says so, and the signature is recorded as checked against it', async () => {
    const school = await freshSchool();
    expect((await current(school.principal)).institute.principal).toMatchObject({
      taxCode: 'RSSMRA80A01H501U',
      taxCodeVerifiedBy: null,
      taxCodeVerifiedAt: null,
    });
    const verifiedAt = t.clock.now();
    await db()
      .update(users)
      .set({ taxCodeVerifiedAt: verifiedAt, taxCodeVerifiedSource: 'cie' })
      .where(eq(users.id, school.principalId));
    expect((await current(school.principal)).institute.principal).toMatchObject({
      taxCodeVerifiedBy: 'cie',
      taxCodeVerifiedAt: verifiedAt.toISOString(),
    });
    const signer = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const document = await download(school.principal);
    t.clock.advance(60_000);
    const res = await upload(school.principal, await signPades(document, signer), 'firmato.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const signatureId = SignatureResultSchema.parse(res.json()).signature.id;
    const staff = await login('sylla@demo.test');
    const [item] = await pendingReviews(school.instituteId);
    const detail = await staff.get(`/api/reviews/adesioni/items/${item!.id}`);
    expect(detail.json().content.signature.verification).toMatchObject({ expectedSignerVerifiedBy: 'cie' });
    const report = await staff.get(
      `/api/institutes/${school.instituteId}/adhesion/signatures/${signatureId}/verification-report`,
    );
    expect(JSON.parse(report.body).expectedSigner).toEqual({
      taxCode: 'RSSMRA80A01H501U',
      verifiedBy: 'cie',
    });
  });

  it('re-sign: the newest upload is the current one everywhere, whatever signing time the signer declares', async () => {
    const school = await freshSchool();
    const signer = await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' });
    const document = await download(school.principal);
    const generatedAt = t.clock.now().getTime();
    t.clock.advance(600_000);
    const first = await signCades(document, signer, { signingTime: new Date(generatedAt + 540_000) });
    expect((await upload(school.principal, first, 'prima.p7m')).statusCode).toBe(201);
    const staff = await login('sylla@demo.test');
    const [item] = await pendingReviews(school.instituteId);
    const asked = await staff.post(`/api/reviews/adesioni/${item!.id}/decision`, {
      decision: 'request_changes',
      note: 'Firma di nuovo, per favore.',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    t.clock.advance(600_000);
    // The second signature declares a signing time before the first one's (a signing computer's clock set back).
    const second = await signPades(await download(school.principal), signer, {
      signingTime: new Date(generatedAt + 60_000),
    });
    const res = await upload(school.principal, second, 'seconda.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const secondId = SignatureResultSchema.parse(res.json()).signature.id;

    const file = await staff.get(`/api/institutes/${school.instituteId}/adhesion/signed-file`);
    expect(file.statusCode).toBe(200);
    expect(Buffer.compare(file.rawPayload, Buffer.from(second))).toBe(0);
    expect((await current(school.principal)).lastSignature).toMatchObject({
      id: secondId,
      method: 'pades',
      signedFileName: 'seconda.pdf',
    });

    const [newItem] = await pendingReviews(school.instituteId);
    const detail = await staff.get(`/api/reviews/adesioni/items/${newItem!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const content = detail.json().content;
    expect(content.signature.id).toBe(secondId);
    expect(
      content.versions.map((v: { signedFileName: string; current: boolean }) => [
        v.signedFileName,
        v.current,
      ]),
    ).toEqual([
      ['prima.p7m', false],
      ['seconda.pdf', true],
    ]);
    // The review shows what was verified, and each version's report is downloadable (JSON).
    expect(content.signature.verification).toMatchObject({
      qualified: true,
      formatDetail: 'pades-baseline',
      trustService: { name: 'Firma digitale qualificata di test', status: 'granted' },
      trustedTime: { source: 'receipt' },
      revocation: { status: 'good', source: 'ocsp' },
    });
    const firstId = content.versions[0].id as number;
    const report = await staff.get(
      `/api/institutes/${school.instituteId}/adhesion/signatures/${firstId}/verification-report`,
    );
    expect(report.statusCode, report.body).toBe(200);
    expect(report.headers['content-type']).toMatch(/^application\/json/);
    expect(report.headers['content-disposition']).toContain('attachment');
    expect(JSON.parse(report.body)).toMatchObject({
      format: 'cades',
      formatDetail: 'cades-attached',
      declaredSigningTime: new Date(generatedAt + 540_000).toISOString(),
    });
    expect(
      (
        await school.principal.get(
          `/api/institutes/${school.instituteId}/adhesion/signatures/${firstId}/verification-report`,
        )
      ).statusCode,
    ).toBe(200);
    const stranger = await freshSchool();
    expect(
      (
        await stranger.principal.get(
          `/api/institutes/${school.instituteId}/adhesion/signatures/${firstId}/verification-report`,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await staff.get(
          `/api/institutes/${stranger.instituteId}/adhesion/signatures/${firstId}/verification-report`,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('refuses an oversized file (413), another content type (415), a missing file name and a principal without codice fiscale', async () => {
    const school = await freshSchool({ taxCode: null });
    const big = Buffer.alloc(SIGNED_UPLOAD_MAX_BYTES + 1, 0x25);
    const res = await upload(school.principal, big, 'grande.pdf');
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/dimensione massima di 15 MB/);
    expect((await upload(school.principal, Buffer.from('x'), 'a.txt', 'text/plain')).statusCode).toBe(415);
    const noName = await school.principal.send('POST', '/api/adhesions/current/signatures/upload', {
      payload: Buffer.from('%PDF-1.7'),
      headers: { 'content-type': 'application/pdf' },
    });
    expect(noName.statusCode).toBe(422);
    const noTaxCode = await upload(school.principal, await download(school.principal), 'a.pdf');
    expect(noTaxCode.json()).toMatchObject({ statusCode: 422, code: 'tax_code_missing' });
    expect((await current(school.principal)).signBlockers.upload).toMatch(/codice fiscale/);
    await expectNothingChanged(school);
  });
});

describe('without a verified trusted list', () => {
  it('a list signed by an operator the configuration does not name is never used', async () => {
    const foreign = writeTrustedList(
      signTrustedList(
        trustedListXml([{ ca, name: 'Firma digitale qualificata di test' }]),
        await createListOperator('Operatore sconosciuto'),
      ),
      await createListOperator(),
    );
    const [unconfigured, unverified] = await Promise.all([buildTestApp(), buildTestApp(foreign.env)]);
    try {
      expect(await unconfigured.app.trustedList.current()).toBeNull();
      expect(await unverified.app.trustedList.current()).toBeNull();
    } finally {
      await Promise.all([unconfigured.close(), unverified.close()]);
      rmSync(foreign.dir, { recursive: true, force: true });
    }
  });

  it('an uploaded signature is refused with an Italian 503 and nothing changes', async () => {
    const school = await freshSchool();
    const signed = await signPades(
      await download(school.principal),
      await issueSignerCertificate(ca, { name: 'Mario Rossi', taxCode: 'RSSMRA80A01H501U' }),
    );
    const source = t.app.trustedList;
    Object.assign(t.app, { trustedList: { current: async () => null } });
    try {
      const res = await upload(school.principal, signed, 'a.pdf');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ code: 'trust_list_unavailable' });
      expect(res.json().message).toContain('prestatori qualificati non disponibile');
    } finally {
      Object.assign(t.app, { trustedList: source });
    }
    await expectNothingChanged(school);
  });
});

describe('staff downloads and the school home', () => {
  it('staff download an institute’s document; a principal only their own; unknown institute 404', async () => {
    const school = await freshSchool();
    const other = await freshSchool({ state: 'adesione_firmata' });
    await current(school.principal);
    const staff = await login('superadmin@demo.test');
    const res = await staff.get(`/api/institutes/${school.instituteId}/adhesion/document.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect((await staff.get(`/api/institutes/${school.instituteId}/adhesion/signed-file`)).statusCode).toBe(
      404,
    );
    expect((await staff.get('/api/institutes/987654321/adhesion/document.pdf')).statusCode).toBe(404);
    expect(
      (await other.principal.get(`/api/institutes/${school.instituteId}/adhesion/document.pdf`)).statusCode,
    ).toBe(403);
  });

  it('the home shows the institute, its plessi with teacher counts and the teachers', async () => {
    const school = await freshSchool({ state: 'attivo', firstContact: true });
    const teacher = await createUser('teacher', { firstName: 'Anna', lastName: 'Alberti' });
    await db()
      .insert(teacherProfiles)
      .values({ userId: teacher.id, kind: 'insegnante', schoolSiteId: school.siteIds[0]! });
    for (const client of [school.principal, school.firstContact!]) {
      const res = await client.get('/api/adhesions/current/overview');
      expect(res.statusCode, res.body).toBe(200);
      const home = SchoolHomeSchema.parse(res.json());
      expect(home.institute.ministryCode).toBe(school.ministryCode);
      expect(home.nextStep.code).toBe('active');
      expect(home.schoolSites[0]).toMatchObject({ participating: true, teacherCount: 1 });
      expect(home.teachers).toMatchObject({
        total: 1,
        items: [{ firstName: 'Anna', lastName: 'Alberti', reviewState: 'in_attesa' }],
      });
    }
  });

  it('seedDemoAdhesion records a document, an online signature and its review item without changing the state', async () => {
    const school = await freshSchool({ state: 'adesione_firmata' });
    await seedDemoAdhesion(db(), school.instituteId, school.principalId, t.clock.now());
    await seedDemoAdhesion(db(), school.instituteId, school.principalId, t.clock.now());
    expect(await stateOf(school.instituteId)).toBe('adesione_firmata');
    expect(await signatureCount(school.instituteId)).toBe(1);
    expect(await pendingReviews(school.instituteId)).toHaveLength(1);
    const view = await current(school.principal);
    expect(view.lastSignature?.method).toBe('online');
    expect(view.document?.sha256).toBe(view.lastSignature?.documentSha256);
  });
});
