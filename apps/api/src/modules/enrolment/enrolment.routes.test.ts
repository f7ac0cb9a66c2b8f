import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, inArray, sql } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import { ENROLMENT_MESSAGES } from '@portale/shared/enrolment';
import {
  auditLog,
  enrolmentInvitations,
  enrolments,
  instituteAdhesionTransitions,
  institutes,
  outbox,
  roles,
  schoolSites,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import {
  buildAccountsApp,
  call,
  linkToken,
  login,
  messagesTo,
  STRONG_PASSWORD,
} from '../../../test/accounts-harness.ts';

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
const db = () => t.database.db;

/** A valid codice fiscale from its first 15 characters. */
const taxCode = (first15: string) => first15 + taxCodeCheckChar(first15);

let phoneSeq = 0;
/** A fresh Italian mobile number each time (a number gets one code a minute). */
const nextPhone = () => {
  phoneSeq += 1;
  return {
    local: `333 400 ${String(phoneSeq).padStart(4, '0')}`,
    e164: `+39333400${String(phoneSeq).padStart(4, '0')}`,
  };
};

/** Starts a public phone verification; confirms it with the SMS code unless `confirm` is false. */
async function verifiedPhone(confirm = true) {
  const phone = nextPhone();
  const started = await call(t, {
    method: 'POST',
    url: '/api/phone-verifications',
    body: { phone: phone.local },
  });
  expect(started.statusCode).toBe(201);
  const verificationId: string = started.json().verificationId;
  if (confirm) {
    const [sms] = await messagesTo(t, phone.e164);
    const code = /\b(\d{6})\b/.exec(sms!.textBody)![1]!;
    const confirmed = await call(t, {
      method: 'POST',
      url: `/api/phone-verifications/${verificationId}/confirm`,
      body: { code },
    });
    expect(confirmed.statusCode).toBe(200);
  }
  return { verificationId, phone };
}

interface Fixture {
  id: number;
  ministryCode: string;
  siteIds: number[];
}
let instituteSeq = 0;
/** A new institute in state `nessuna` with `sites` plessi. */
async function newInstitute(sites = 3, name = 'Istituto comprensivo Gianni Rodari'): Promise<Fixture> {
  instituteSeq += 1;
  const ministryCode = `RMIC9Z${String(instituteSeq).padStart(3, '0')}X`;
  const [institute] = await db()
    .insert(institutes)
    .values({
      ministryCode,
      name: `${name} ${instituteSeq}`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lazio',
      province: 'RM',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
    })
    .returning();
  const rows = await db()
    .insert(schoolSites)
    .values(
      Array.from({ length: sites }, (_, i) => ({
        ministryCode: `${ministryCode.slice(0, 8)}${i}${instituteSeq % 10}`,
        instituteId: institute!.id,
        name: `Plesso ${i + 1} di ${ministryCode}`,
        schoolLevel: 'primaria' as const,
        typeLabel: 'Scuola primaria',
        municipalityCode: 'H501',
        municipalityName: 'Roma',
        province: 'RM',
        region: 'Lazio',
      })),
    )
    .returning({ id: schoolSites.id });
  return { id: institute!.id, ministryCode, siteIds: rows.map((r) => r.id) };
}

const principal = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Paola',
  lastName: 'Preside',
  email: 'paola.preside@example.com',
  taxCode: taxCode('PRSPLA70A41H501'),
  phone: '333 555 0001',
  ...overrides,
});
const firstContact = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Sergio',
  lastName: 'Segreteria',
  email: 'sergio.segreteria@example.com',
  taxCode: taxCode('SGRSRG80A01H501'),
  phone: '333 555 0002',
  ...overrides,
});

const enrol = (body: Record<string, unknown>) => call(t, { method: 'POST', url: '/api/enrolments', body });

/** Rows of every table an enrolment writes. */
async function rowCounts() {
  const n = async (
    table:
      | typeof users
      | typeof enrolments
      | typeof outbox
      | typeof auditLog
      | typeof instituteAdhesionTransitions
      | typeof userRoles,
  ) => (await db().select({ n: count() }).from(table))[0]!.n;
  const participating = (
    await db().select({ n: count() }).from(schoolSites).where(eq(schoolSites.participating, true))
  )[0]!.n;
  const enrolled = (
    await db()
      .select({ n: count() })
      .from(institutes)
      .where(sql`${institutes.adhesionState} <> 'nessuna'`)
  )[0]!.n;
  return {
    users: await n(users),
    enrolments: await n(enrolments),
    outbox: await n(outbox),
    audit: await n(auditLog),
    transitions: await n(instituteAdhesionTransitions),
    userRoles: await n(userRoles),
    participating,
    enrolled,
  };
}

async function rolesOf(userId: number): Promise<string[]> {
  const rows = await db()
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  return rows.map((r) => r.name).sort();
}

beforeAll(async () => {
  t = await buildAccountsApp();
});
afterAll(() => t.close());

describe('POST /api/enrolments', () => {
  it('enrols the institute: accounts and roles, links, plessi, state iscritto with its transition, e-mails whose link sets the password', async () => {
    const institute = await newInstitute(3);
    const { verificationId, phone } = await verifiedPhone();
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal(),
      firstContact: firstContact({ phone: phone.local }),
      schoolSiteIds: [institute.siteIds[0], institute.siteIds[2]],
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      instituteId: institute.id,
      ministryCode: institute.ministryCode,
      principalEmail: 'paola.preside@example.com',
      firstContactEmail: 'sergio.segreteria@example.com',
      schoolSiteCount: 2,
    });
    expect(body.message).toMatch(/firma il documento di adesione formale/);

    const [row] = await db().select().from(institutes).where(eq(institutes.id, institute.id));
    expect(row!.adhesionState).toBe('iscritto');
    const [head] = await db().select().from(users).where(eq(users.email, 'paola.preside@example.com'));
    const [contact] = await db().select().from(users).where(eq(users.email, 'sergio.segreteria@example.com'));
    expect(row!.principalUserId).toBe(head!.id);
    expect(row!.firstContactUserId).toBe(contact!.id);
    expect(await rolesOf(head!.id)).toEqual(['school.principal']);
    expect(await rolesOf(contact!.id)).toEqual(['institute.first-contact']);
    // The verified number is the first contact's: only that phone counts as verified; no e-mail yet.
    expect(head).toMatchObject({
      phone: '+393335550001',
      phoneVerifiedAt: null,
      emailVerifiedAt: null,
      taxCode: taxCode('PRSPLA70A41H501'),
    });
    expect(contact!.phoneVerifiedAt).not.toBeNull();
    expect(contact!.emailVerifiedAt).toBeNull();

    const sites = await db()
      .select({ id: schoolSites.id, participating: schoolSites.participating })
      .from(schoolSites)
      .where(eq(schoolSites.instituteId, institute.id));
    expect(
      sites
        .filter((s) => s.participating)
        .map((s) => s.id)
        .sort(),
    ).toEqual([institute.siteIds[0], institute.siteIds[2]].sort());
    const transitions = await db()
      .select()
      .from(instituteAdhesionTransitions)
      .where(eq(instituteAdhesionTransitions.instituteId, institute.id));
    expect(transitions).toMatchObject([{ fromState: 'nessuna', toState: 'iscritto', actorUserId: null }]);
    const [enrolment] = await db().select().from(enrolments).where(eq(enrolments.instituteId, institute.id));
    expect(enrolment).toMatchObject({
      phoneVerificationId: verificationId,
      applicantPhone: phone.e164,
      principalUserId: head!.id,
      firstContactUserId: contact!.id,
    });
    const audit = await db().select().from(auditLog).where(eq(auditLog.action, 'institute.enrolled'));
    expect(audit.some((a) => a.entityId === String(institute.id))).toBe(true);

    for (const email of ['paola.preside@example.com', 'sergio.segreteria@example.com']) {
      const mails = await messagesTo(t, email);
      expect(mails.map((m) => m.templateKey)).toEqual(['email.iscrizione-invito']);
      expect(mails[0]!.textBody).toContain(institute.ministryCode);
    }
    expect((await messagesTo(t, 'paola.preside@example.com'))[0]!.textBody).toMatch(
      /Dirigente scolastico[\s\S]*firmare il documento di adesione formale/,
    );

    // The account cannot be used before the link; the link (7 days) sets the password.
    const refused = await call(t, {
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'paola.preside@example.com', password: STRONG_PASSWORD },
    });
    expect(refused.json().token).toBeUndefined();
    const token = await linkToken(t, 'paola.preside@example.com', 'email.iscrizione-invito');
    t.clock.advance(6 * 24 * 60 * 60_000);
    const reset = await call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: STRONG_PASSWORD, password_confirmation: STRONG_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const bearer = await login(t, 'paola.preside@example.com', STRONG_PASSWORD);
    const me = await call(t, { method: 'GET', url: '/api/auth/me', bearer });
    expect(me.json().user).toMatchObject({
      emailVerified: true,
      phoneVerified: false,
      mustSignPrincipalDocument: true,
    });
    expect(me.json().user.scope).toContain('school.principal');
  });

  it('invites an existing account without changing it; accepted signed in with the same codice fiscale, it becomes principal and first contact', async () => {
    const cf = taxCode('NSGRNI80A41H501');
    await db().update(users).set({ taxCode: cf }).where(eq(users.email, 'insegnante@demo.test'));
    const institute = await newInstitute(2);
    const { verificationId } = await verifiedPhone();
    const [before] = await db().select().from(users).where(eq(users.email, 'insegnante@demo.test'));
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({
        email: 'INSEGNANTE@demo.test',
        firstName: 'Altro',
        lastName: 'Nome',
        taxCode: cf.toLowerCase(),
      }),
      firstContact: null,
      schoolSiteIds: [institute.siteIds[1]],
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [after] = await db().select().from(users).where(eq(users.email, 'insegnante@demo.test'));
    expect(after).toMatchObject({
      id: before!.id,
      firstName: before!.firstName,
      lastName: before!.lastName,
      phone: before!.phone,
      taxCode: cf,
      passwordHash: before!.passwordHash,
    });
    // Nothing granted, nobody linked until the owner accepts; the institute is enrolled all the same.
    expect(await rolesOf(before!.id)).toEqual(['teacher']);
    const [row] = await db().select().from(institutes).where(eq(institutes.id, institute.id));
    expect(row).toMatchObject({ principalUserId: null, firstContactUserId: null, adhesionState: 'iscritto' });
    const mails = await messagesTo(t, 'insegnante@demo.test');
    expect(mails[0]!.templateKey).toBe('email.iscrizione-invito-account');
    expect(mails[0]!.textBody).toMatch(
      /Dirigente scolastico e Referente d'istituto[\s\S]*non è stato modificato/,
    );
    expect(mails[0]!.textBody).not.toMatch(/token=/);

    // Only the owner sees and decides it: someone else gets 403, a guest 401, an unknown id 404.
    const bearer = await login(t, 'insegnante@demo.test');
    const list = await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer });
    expect(list.statusCode).toBe(200);
    const invitation = list.json().items.find((i: { instituteId: number }) => i.instituteId === institute.id);
    expect(invitation).toMatchObject({
      ministryCode: institute.ministryCode,
      roles: ['school.principal', 'institute.first-contact'],
      state: 'in_attesa',
    });
    const other = await login(t, 'da-verificare@demo.test');
    expect(
      (await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer: other })).json().items,
    ).toEqual([]);
    const foreign = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitation.id}/accept`,
      bearer: other,
    });
    expect(foreign.json()).toMatchObject({
      statusCode: 403,
      code: 'forbidden',
      message: 'Questo invito è rivolto a un altro account.',
    });
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/enrolment-invitations/${invitation.id}/decline`,
          bearer: other,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(t, { method: 'POST', url: `/api/enrolment-invitations/${invitation.id}/accept` }))
        .statusCode,
    ).toBe(401);
    expect(
      (await call(t, { method: 'POST', url: '/api/enrolment-invitations/987654321/accept', bearer }))
        .statusCode,
    ).toBe(404);
    expect(await rolesOf(before!.id)).toEqual(['teacher']);

    const accepted = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitation.id}/accept`,
      bearer,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      invitation: { state: 'accettato' },
      message: expect.stringMatching(/accettato/),
    });
    expect(await rolesOf(before!.id)).toEqual(['institute.first-contact', 'school.principal', 'teacher']);
    const [linked] = await db().select().from(institutes).where(eq(institutes.id, institute.id));
    expect(linked).toMatchObject({ principalUserId: before!.id, firstContactUserId: before!.id });
    const me = await call(t, { method: 'GET', url: '/api/auth/me', bearer });
    expect(me.json().user).toMatchObject({ mustSignPrincipalDocument: true });
    const again = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitation.id}/accept`,
      bearer,
    });
    expect(again.json()).toMatchObject({ statusCode: 409, code: 'invitation_decided' });
    expect(
      (await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer })).json().items,
    ).toEqual([]);
  });

  it('refuses the invitation when the codice fiscale typed is not the account’s (nothing changes); it can be declined', async () => {
    const email = 'invitata.cf@example.com';
    const hers = taxCode('NVTGLI75A41H501');
    await db()
      .insert(users)
      .values({
        email,
        passwordHash: (
          await db()
            .select({ h: users.passwordHash })
            .from(users)
            .where(eq(users.email, 'insegnante@demo.test'))
        )[0]!.h,
        firstName: 'Giulia',
        lastName: 'Invitata',
        taxCode: hers,
        emailVerifiedAt: new Date(),
        phone: '+393335559999',
        phoneVerifiedAt: new Date(),
        createdAt: new Date(),
        updatedAt: new Date(),
      });
    const institute = await newInstitute(1);
    const { verificationId } = await verifiedPhone();
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [account] = await db().select().from(users).where(eq(users.email, email));
    const bearer = await login(t, email);
    const [invitation] = (await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer })).json()
      .items;
    const refused = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitation.id}/accept`,
      bearer,
    });
    expect(refused.json()).toMatchObject({
      statusCode: 422,
      code: 'tax_code_mismatch',
      message: expect.stringMatching(/codice fiscale indicato nell’iscrizione non corrisponde/),
    });
    expect(await rolesOf(account!.id)).toEqual([]);
    expect((await db().select().from(institutes).where(eq(institutes.id, institute.id)))[0]).toMatchObject({
      principalUserId: null,
      firstContactUserId: null,
    });
    const declined = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitation.id}/decline`,
      bearer,
    });
    expect(declined.json()).toMatchObject({ invitation: { state: 'rifiutato' } });
    expect(
      (await call(t, { method: 'POST', url: `/api/enrolment-invitations/${invitation.id}/accept`, bearer }))
        .statusCode,
    ).toBe(409);
    expect(await rolesOf(account!.id)).toEqual([]);
    // The invitation, with the codice fiscale typed about her, is part of her data.
    const exported = (await call(t, { method: 'GET', url: '/api/account/export', bearer })).json();
    expect(exported.enrolmentInvitations).toMatchObject([
      { instituteId: institute.id, taxCode: principal().taxCode, state: 'rifiutato' },
    ]);
  });

  it('never makes a staff account principal or first contact, and answers as for any address (issue 32)', async () => {
    const staff = await db()
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.email, ['superadmin@demo.test', 'cromos@demo.test', 'utenti@demo.test']));
    const rolesBefore = await Promise.all(staff.map((s) => rolesOf(s.id)));
    const institute = await newInstitute(1);
    const { verificationId } = await verifiedPhone();
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'superadmin@demo.test', taxCode: taxCode('MMNSLV70A41H501') }),
      firstContact: firstContact({ email: 'cromos@demo.test' }),
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      principalEmail: 'superadmin@demo.test',
      firstContactEmail: 'cromos@demo.test',
      message: ENROLMENT_MESSAGES.accepted,
    });
    const other = await newInstitute(1);
    const second = await verifiedPhone();
    const viaPermission = await enrol({
      verificationId: second.verificationId,
      instituteId: other.id,
      principal: principal({ email: 'utenti@demo.test' }),
      firstContact: null,
      schoolSiteIds: other.siteIds,
      privacyAccepted: true,
    });
    expect(viaPermission.statusCode).toBe(201);
    expect(await Promise.all(staff.map((s) => rolesOf(s.id)))).toEqual(rolesBefore);
    expect(
      await db()
        .select()
        .from(enrolmentInvitations)
        .where(
          inArray(
            enrolmentInvitations.userId,
            staff.map((s) => s.id),
          ),
        ),
    ).toEqual([]);
    for (const s of staff) expect(await messagesTo(t, s.email)).toEqual([]);
    expect((await db().select().from(institutes).where(eq(institutes.id, institute.id)))[0]).toMatchObject({
      adhesionState: 'iscritto',
      principalUserId: null,
      firstContactUserId: null,
    });
    const named = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'enrolment.staff_account_named'));
    expect(named.map((a) => a.entityId).sort()).toEqual(staff.map((s) => String(s.id)).sort());

    // The super-admin's portal still works: no adhesion to sign, staff lists answer.
    const bearer = await login(t, 'superadmin@demo.test');
    expect((await call(t, { method: 'GET', url: '/api/auth/me', bearer })).json().user).toMatchObject({
      mustSignPrincipalDocument: false,
      roles: ['super-admin'],
    });
    expect((await call(t, { method: 'GET', url: '/api/institutes', bearer })).statusCode).toBe(200);
  });

  it('refuses an institute that is already enrolled (409 with its code) and writes nothing', async () => {
    const institute = await newInstitute(1);
    const first = await verifiedPhone();
    const ok = await enrol({
      verificationId: first.verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'dup.uno@example.com' }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(ok.statusCode).toBe(201);
    const second = await verifiedPhone();
    const before = await rowCounts();
    const again = await enrol({
      verificationId: second.verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'dup.due@example.com' }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(
      `L’istituto ${institute.ministryCode} è già iscritto al programma: non è possibile iscriverlo di nuovo.`,
    );
    expect(await rowCounts()).toEqual(before);
  });

  it('lets exactly one of two simultaneous enrolments of the same institute through', async () => {
    const institute = await newInstitute(2);
    const [a, b] = await Promise.all([verifiedPhone(), verifiedPhone()]);
    const results = await Promise.all(
      [a!, b!].map((v, i) =>
        enrol({
          verificationId: v.verificationId,
          instituteId: institute.id,
          principal: principal({ email: `gara.${i}@example.com` }),
          firstContact: null,
          schoolSiteIds: institute.siteIds,
          privacyAccepted: true,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await db().select().from(enrolments).where(eq(enrolments.instituteId, institute.id))).toHaveLength(
      1,
    );
    expect(
      await db()
        .select()
        .from(instituteAdhesionTransitions)
        .where(eq(instituteAdhesionTransitions.instituteId, institute.id)),
    ).toHaveLength(1);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().message).toContain(institute.ministryCode);
  });

  it('refuses an unverified, expired, forged or reused verification', async () => {
    const institute = await newInstitute(1);
    const body = (verificationId: string) => ({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'verifica@example.com' }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    const unverified = await verifiedPhone(false);
    const late = await verifiedPhone();
    const before = await rowCounts();
    const r1 = await enrol(body(unverified.verificationId));
    expect(r1.statusCode).toBe(422);
    expect(r1.json().message).toMatch(/non è ancora stato verificato/);

    const forged = await enrol(body('3f1d2c4b-5a69-4e7f-8a9b-0c1d2e3f4a5b'));
    expect(forged.statusCode).toBe(422);
    expect(forged.json().message).toMatch(/non è valida/);
    const garbage = await enrol(body('not-a-uuid'));
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().errors.verificationId).toBeTruthy();

    t.clock.advance(61 * 60_000);
    const r2 = await enrol(body(late.verificationId));
    expect(r2.statusCode).toBe(422);
    expect(r2.json().message).toMatch(/scaduta/);
    expect(await rowCounts()).toEqual(before);

    const used = await db().select({ id: enrolments.phoneVerificationId }).from(enrolments).limit(1);
    const reused = await enrol(body(used[0]!.id));
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toMatch(/già stata usata/);

    // A signed-in account's own phone check is not an enrolment credential.
    const bearer = await login(t, 'da-verificare@demo.test');
    const own = await call(t, {
      method: 'POST',
      url: '/api/account/phone-verifications',
      body: { phone: nextPhone().local },
      bearer,
    });
    expect(own.statusCode).toBe(201);
    const owned = await rowCounts();
    expect((await enrol(body(own.json().verificationId))).statusCode).toBe(422);
    expect(await rowCounts()).toEqual(owned);
  });

  it('refuses a plesso of another institute and bad fields (422 per field), writing nothing', async () => {
    const institute = await newInstitute(2);
    const other = await newInstitute(1);
    const { verificationId } = await verifiedPhone();
    const before = await rowCounts();
    const foreign = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'estraneo@example.com' }),
      firstContact: null,
      schoolSiteIds: [institute.siteIds[0], other.siteIds[0]],
      privacyAccepted: true,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.schoolSiteIds[0]).toMatch(/non appartiene/);

    const bad = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({
        email: 'preside@pec.it',
        taxCode: 'PRSPLA70A41H501Z',
        phone: '06 1234 5678',
        firstName: '',
      }),
      firstContact: firstContact({ lastName: '', taxCode: '' }),
      schoolSiteIds: [],
      privacyAccepted: false,
    });
    expect(bad.statusCode).toBe(422);
    const { errors } = bad.json();
    expect(errors['principal.email'][0]).toMatch(/PEC/);
    expect(errors['principal.taxCode'][0]).toMatch(/codice fiscale/);
    expect(errors['principal.phone'][0]).toMatch(/cellulare/);
    expect(errors['principal.firstName']).toBeTruthy();
    expect(errors['firstContact.lastName']).toBeTruthy();
    expect(errors['firstContact.taxCode'][0]).toMatch(/codice fiscale/);
    expect(errors.schoolSiteIds[0]).toMatch(/almeno un plesso/);
    expect(errors.privacyAccepted[0]).toMatch(/privacy/);

    const unknown = await enrol({
      verificationId,
      instituteId: 99_999_999,
      principal: principal(),
      firstContact: null,
      schoolSiteIds: [1],
      privacyAccepted: true,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.instituteId).toBeTruthy();
    expect(await rowCounts()).toEqual(before);
    // The verification is still usable after refusals.
    const status = await call(t, { method: 'GET', url: `/api/enrolments/verifications/${verificationId}` });
    expect(status.json().status).toBe('usable');
  });
});

describe('enrolment reads', () => {
  it('finds institutes by code or words without accents, marks the enrolled ones, at most 20', async () => {
    const fresh = await newInstitute(1, 'Istituto comprensivo Città Giardino');
    const byCode = await call(t, {
      method: 'GET',
      url: `/api/enrolments/institutes?q=${fresh.ministryCode.toLowerCase()}`,
    });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().items[0]).toMatchObject({
      id: fresh.id,
      ministryCode: fresh.ministryCode,
      adhesionState: 'nessuna',
      enrollable: true,
    });
    const byName = await call(t, {
      method: 'GET',
      url: `/api/enrolments/institutes?q=${encodeURIComponent('citta giardino')}`,
    });
    expect(byName.json().items.map((i: { id: number }) => i.id)).toContain(fresh.id);
    const many = await call(t, { method: 'GET', url: '/api/enrolments/institutes?q=istituto' });
    expect(many.json().items.length).toBeLessThanOrEqual(20);
    const enrolled = many
      .json()
      .items.filter((i: { adhesionState: string }) => i.adhesionState !== 'nessuna');
    expect(enrolled.length).toBeGreaterThan(0);
    expect(enrolled.every((i: { enrollable: boolean }) => !i.enrollable)).toBe(true);
    const short = await call(t, { method: 'GET', url: '/api/enrolments/institutes?q=a' });
    expect(short.statusCode).toBe(422);
  });

  it('gives an institute with its plessi (404 when unknown) and the state of a verification', async () => {
    const fresh = await newInstitute(3);
    const res = await call(t, { method: 'GET', url: `/api/enrolments/institutes/${fresh.id}` });
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .schoolSites.map((s: { id: number }) => s.id)
        .sort(),
    ).toEqual([...fresh.siteIds].sort());
    expect((await call(t, { method: 'GET', url: '/api/enrolments/institutes/99999999' })).statusCode).toBe(
      404,
    );
    expect((await call(t, { method: 'GET', url: '/api/enrolments/institutes/abc' })).statusCode).toBe(404);

    const { verificationId } = await verifiedPhone();
    const usable = (
      await call(t, { method: 'GET', url: `/api/enrolments/verifications/${verificationId}` })
    ).json();
    expect(usable).toMatchObject({ status: 'usable' });
    expect(usable.phoneMasked).toMatch(/•/);
    const forged = (
      await call(t, {
        method: 'GET',
        url: '/api/enrolments/verifications/3f1d2c4b-5a69-4e7f-8a9b-0c1d2e3f4a5b',
      })
    ).json();
    expect(forged).toMatchObject({ status: 'invalid', phoneMasked: null });
  });

  it('shows the new state in the staff list at once (cached totals cleared)', async () => {
    const bearer = await login(t, 'superadmin@demo.test');
    const total = async () =>
      (await call(t, { method: 'GET', url: '/api/institutes?adhesionState=iscritto', bearer })).json()
        .total as number;
    const before = await total();
    const institute = await newInstitute(1);
    const { verificationId } = await verifiedPhone();
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email: 'lista@example.com' }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(res.statusCode).toBe(201);
    expect(await total()).toBe(before + 1);
    const ids = (
      await db()
        .select({ id: institutes.id })
        .from(institutes)
        .where(inArray(institutes.id, [institute.id]))
    ).map((r) => r.id);
    expect(ids).toEqual([institute.id]);
  });
});

describe('staff follow the invitations (issue 32)', () => {
  /** An institute enrolled with `email`'s existing account as principal: its pending invitation's id. */
  async function invite(email: string, name: string) {
    const institute = await newInstitute(1, name);
    const { verificationId } = await verifiedPhone();
    const res = await enrol({
      verificationId,
      instituteId: institute.id,
      principal: principal({ email }),
      firstContact: null,
      schoolSiteIds: institute.siteIds,
      privacyAccepted: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await db()
      .select({ id: enrolmentInvitations.id })
      .from(enrolmentInvitations)
      .where(eq(enrolmentInvitations.instituteId, institute.id));
    return { invitationId: row!.id, institute };
  }

  it('lists every invitation with search, filters, sort and pages, and exports it; readers read, only managers act', async () => {
    const first = await invite('referente@demo.test', 'Istituto comprensivo Alda Merini');
    const second = await invite('insegnante@demo.test', 'Istituto comprensivo Italo Calvino');
    const staff = await login(t, 'sylla@demo.test');
    const list = (query: string, bearer = staff) =>
      call(t, { method: 'GET', url: `/api/enrolment-invitations/staff?${query}`, bearer });

    const all = await list('');
    expect(all.statusCode, all.body).toBe(200);
    expect(
      all
        .json()
        .items.map((i: { id: number }) => i.id)
        .slice(0, 2),
    ).toEqual([second.invitationId, first.invitationId]);
    const found = await list('q=merini');
    expect(found.json()).toMatchObject({
      total: 1,
      items: [
        {
          id: first.invitationId,
          instituteName: expect.stringMatching(/^Istituto comprensivo Alda Merini/),
          inviteeEmail: 'referente@demo.test',
          state: 'in_attesa',
          expired: false,
        },
      ],
    });
    expect((await list('q=insegnante calvino')).json().items.map((i: { id: number }) => i.id)).toEqual([
      second.invitationId,
    ]);
    expect((await list('state=annullato')).json().total).toBe(0);
    const byName = (await list('sort=instituteName&pageSize=100'))
      .json()
      .items.map((i: { instituteName: string }) => i.instituteName);
    expect(byName).toEqual([...byName].sort((a: string, b: string) => a.localeCompare(b)));
    const bad = await list('state=boh&sort=nulla');
    expect(bad.statusCode).toBe(422);
    const exported = await call(t, {
      method: 'GET',
      url: '/api/enrolment-invitations/staff/export?q=merini',
      bearer: staff,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toMatch(
      /Alda Merini[^;\r\n]*;[^\r\n]*referente@demo\.test;Dirigente scolastico[^;]*;In attesa;No/,
    );

    // Who: user.index reads but acts on nothing; a principal (whose grants are `:own`) reads nothing.
    const reader = await login(t, 'utenti@demo.test');
    expect((await list('', reader)).statusCode).toBe(200);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/enrolment-invitations/${first.invitationId}/cancel`,
          bearer: reader,
        })
      ).statusCode,
    ).toBe(403);
    const head = await login(t, 'dirigente@demo.test');
    expect((await list('', head)).statusCode).toBe(403);
    expect(
      (
        await call(t, {
          method: 'POST',
          url: `/api/enrolment-invitations/${first.invitationId}/resend`,
          bearer: head,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call(t, { method: 'POST', url: '/api/enrolment-invitations/987654321/resend', bearer: staff }))
        .statusCode,
    ).toBe(404);
  });

  it('sends a pending invitation to the corrected address when staff correct the account’s e-mail (decision 047)', async () => {
    const staff = await login(t, 'cromos@demo.test');
    const created = await call(t, {
      method: 'POST',
      url: '/api/users',
      bearer: staff,
      body: { firstName: 'Rita', lastName: 'Refuso', email: 'rita.refuso@exmaple.com', roles: ['teacher'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { invitationId } = await invite('rita.refuso@exmaple.com', 'Istituto comprensivo Elsa Morante');
    const corrected = await call(t, {
      method: 'PATCH',
      url: `/api/users/${created.json().id}`,
      bearer: staff,
      body: { email: 'rita.refuso@example.com' },
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const mails = await messagesTo(t, 'rita.refuso@example.com');
    const invitationMail = mails.find((m) => m.templateKey === 'email.iscrizione-invito-account');
    expect(invitationMail!.textBody).toMatch(/Elsa Morante[\s\S]*accetta l’invito entro 30 giorni/);
    // The invitation itself is unchanged (same account, same expiry); a cancelled one is not sent again.
    const [row] = await db()
      .select()
      .from(enrolmentInvitations)
      .where(eq(enrolmentInvitations.id, invitationId));
    expect(row).toMatchObject({ state: 'in_attesa', userId: created.json().id });
    await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitationId}/cancel`,
      bearer: staff,
    });
    await call(t, {
      method: 'PATCH',
      url: `/api/users/${created.json().id}`,
      bearer: staff,
      body: { email: 'rita.refuso@example.org' },
    });
    expect((await messagesTo(t, 'rita.refuso@example.org')).map((m) => m.templateKey)).not.toContain(
      'email.iscrizione-invito-account',
    );
  });

  it('sends a pending invitation again (30 more days, a new e-mail) and cancels one (the invitee can no longer accept), audited', async () => {
    const { invitationId } = await invite('da-verificare@demo.test', 'Istituto comprensivo Grazia Deledda');
    t.clock.advance(40 * 24 * 60 * 60_000);
    const staff = await login(t, 'cromos@demo.test');
    const expired = await call(t, {
      method: 'GET',
      url: '/api/enrolment-invitations/staff?expired=true',
      bearer: staff,
    });
    expect(expired.json().items.map((i: { id: number }) => i.id)).toContain(invitationId);
    const mailsBefore = (await messagesTo(t, 'da-verificare@demo.test')).length;

    const resent = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitationId}/resend`,
      bearer: staff,
    });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({
      invitation: { id: invitationId, state: 'in_attesa', expired: false },
      message: 'Invito inviato di nuovo a da-verificare@demo.test: vale altri 30 giorni.',
    });
    expect(new Date(resent.json().invitation.expiresAt).getTime()).toBe(
      t.clock.now().getTime() + 30 * 24 * 60 * 60_000,
    );
    const mails = await messagesTo(t, 'da-verificare@demo.test');
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails[0]!.templateKey).toBe('email.iscrizione-invito-account');

    const cancelled = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitationId}/cancel`,
      bearer: staff,
    });
    expect(cancelled.json()).toMatchObject({
      invitation: { state: 'annullato' },
      message: expect.stringMatching(/^Invito annullato/),
    });
    for (const action of ['resend', 'cancel']) {
      const again = await call(t, {
        method: 'POST',
        url: `/api/enrolment-invitations/${invitationId}/${action}`,
        bearer: staff,
      });
      expect(again.json()).toMatchObject({ statusCode: 409, code: 'invitation_not_pending' });
    }
    const invitee = await login(t, 'da-verificare@demo.test');
    expect(
      (await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer: invitee })).json().items,
    ).toEqual([]);
    const accept = await call(t, {
      method: 'POST',
      url: `/api/enrolment-invitations/${invitationId}/accept`,
      bearer: invitee,
    });
    expect(accept.json()).toMatchObject({
      statusCode: 409,
      code: 'invitation_cancelled',
      message: 'L’invito è stato annullato dallo staff del portale: non può più essere accettato.',
    });

    const audit = await db()
      .select()
      .from(auditLog)
      .where(
        sql`${auditLog.entity} = 'enrolment_invitation' and ${auditLog.entityId} = ${String(invitationId)}`,
      )
      .orderBy(auditLog.id);
    const cromos = (
      await db().select({ id: users.id }).from(users).where(eq(users.email, 'cromos@demo.test'))
    )[0]!.id;
    expect(
      audit.filter((a) => a.action !== 'enrolment.invitation_sent').map((a) => [a.action, a.actorUserId]),
    ).toEqual([
      ['enrolment.invitation_resent', cromos],
      ['enrolment.invitation_cancelled', cromos],
    ]);
  });
});
