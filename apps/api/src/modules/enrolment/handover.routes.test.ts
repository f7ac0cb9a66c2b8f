import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { taxCodeCheckChar } from '@portale/shared/accounts';
import {
  auditLog,
  enrolmentInvitations,
  institutes,
  roles,
  userRoles,
  users,
} from '../../db/schema/index.ts';
import { DEMO_PASSWORD } from '../../seed/seed.ts';
import { hashPassword } from '../../lib/passwords.ts';
import {
  buildAccountsApp,
  call,
  linkToken,
  login,
  messagesTo,
  STRONG_PASSWORD,
} from '../../../test/accounts-harness.ts';

// Decision 047: a school's principal or first contact is replaced by an invitation the new person accepts.

let t: Awaited<ReturnType<typeof buildAccountsApp>>;
const db = () => t.database.db;
let passwordHash: string;

/** Three letters for a number (a codice fiscale's name part must be letters). */
const letters = (n: number) =>
  [Math.floor(n / 676) % 26, Math.floor(n / 26) % 26, n % 26]
    .map((d) => String.fromCharCode(65 + d))
    .join('');
/** A valid codice fiscale, different for each call with a different `prefix`/`n`. */
const taxCodeOf = (prefix: string, n: number) => {
  const first15 = `${prefix}${letters(n)}80A01H501`;
  return first15 + taxCodeCheckChar(first15);
};
let cfSeq = 0;
const nextTaxCode = () => taxCodeOf('NWP', ++cfSeq);

let personSeq = 0;
/** A non-staff account with verified contacts (password DEMO_PASSWORD), with `role` when given. */
async function person(role?: 'school.principal' | 'institute.first-contact' | 'teacher') {
  personSeq += 1;
  const cf = taxCodeOf('PRS', personSeq);
  const now = t.clock.now();
  const [user] = await db()
    .insert(users)
    .values({
      email: `persona${personSeq}@scuola-esempio.it`,
      passwordHash,
      firstName: 'Persona',
      lastName: `Numero ${personSeq}`,
      taxCode: cf,
      phone: `+39333700${String(personSeq).padStart(4, '0')}`,
      emailVerifiedAt: now,
      phoneVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (role) await grant(user!.id, role);
  return user!;
}

async function grant(userId: number, role: string) {
  const [r] = await db().select({ id: roles.id }).from(roles).where(eq(roles.name, role));
  await db().insert(userRoles).values({ userId, roleId: r!.id }).onConflictDoNothing();
}

async function rolesOf(userId: number): Promise<string[]> {
  const rows = await db()
    .select({ name: roles.name })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId));
  return rows.map((r) => r.name).sort();
}

let instituteSeq = 0;
/** An enrolled institute in `state` with its principal and first contact. */
async function institute(
  state: 'iscritto' | 'adesione_firmata' | 'attivo' | 'ritirato' | 'nessuna',
  people: { principalUserId?: number | null; firstContactUserId?: number | null } = {},
) {
  instituteSeq += 1;
  const [row] = await db()
    .insert(institutes)
    .values({
      ministryCode: `RMIC8H${String(instituteSeq).padStart(3, '0')}Y`,
      name: `Istituto comprensivo Passaggio ${instituteSeq}`,
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lazio',
      province: 'RM',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      adhesionState: state,
      principalUserId: people.principalUserId ?? null,
      firstContactUserId: people.firstContactUserId ?? null,
    })
    .returning();
  return row!;
}

const handovers = (instituteId: number) => `/api/institutes/${instituteId}/handovers`;
const body = (
  who: { email: string; firstName?: string; lastName?: string; taxCode: string | null },
  role: string,
) => ({
  role,
  firstName: who.firstName ?? 'Nuova',
  lastName: who.lastName ?? 'Persona',
  email: who.email,
  taxCode: who.taxCode ?? '',
});
const invite = (bearer: string, instituteId: number, payload: unknown) =>
  call(t, { method: 'POST', url: handovers(instituteId), bearer, body: payload });
const accept = (bearer: string, invitationId: number) =>
  call(t, { method: 'POST', url: `/api/enrolment-invitations/${invitationId}/accept`, bearer });

async function instituteRow(id: number) {
  return (await db().select().from(institutes).where(eq(institutes.id, id)))[0]!;
}

let staff: string;
beforeAll(async () => {
  t = await buildAccountsApp();
  passwordHash = await hashPassword(DEMO_PASSWORD);
  staff = await login(t, 'sylla@demo.test');
});
afterAll(() => t.close());

describe('a new principal replaces the old one (decision 047)', () => {
  it('staff invite an existing account; accepted, the new principal sees the school and the old one no longer does, the active adhesion stays valid', async () => {
    const oldPrincipal = await person('school.principal');
    const contact = await person('institute.first-contact');
    const school = await institute('attivo', {
      principalUserId: oldPrincipal.id,
      firstContactUserId: contact.id,
    });
    const otherSchool = await institute('attivo', { principalUserId: oldPrincipal.id });
    const successor = await person('teacher');

    const res = await invite(staff, school.id, body(successor, 'school.principal'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      invitation: {
        role: 'school.principal',
        inviteeEmail: successor.email,
        state: 'in_attesa',
        expired: false,
        invitedBy: expect.stringMatching(/\S/),
      },
      message: `Invito inviato a ${successor.email}: vale 30 giorni. Chi ricopre ora il ruolo resta collegato all’istituto fino all’accettazione.`,
    });
    const invitationId: number = res.json().invitation.id;
    // Nothing changes before the acceptance.
    expect((await instituteRow(school.id)).principalUserId).toBe(oldPrincipal.id);
    const [mail] = await messagesTo(t, successor.email);
    expect(mail!.templateKey).toBe('email.passaggio-invito-account');
    expect(mail!.textBody).toMatch(/nuovo dirigente scolastico dell’istituto Istituto comprensivo Passaggio/);
    // The institute's readers see it pending: staff and its people.
    const listed = await call(t, { method: 'GET', url: handovers(school.id), bearer: staff });
    expect(listed.json().items[0]).toMatchObject({ id: invitationId, state: 'in_attesa' });
    const asContact = await login(t, contact.email);
    expect((await call(t, { method: 'GET', url: handovers(school.id), bearer: asContact })).statusCode).toBe(
      200,
    );

    const bearer = await login(t, successor.email);
    const mine = await call(t, { method: 'GET', url: '/api/enrolment-invitations', bearer });
    expect(mine.json().items).toEqual([
      expect.objectContaining({ id: invitationId, kind: 'passaggio', roles: ['school.principal'] }),
    ]);
    const oldBearer = await login(t, oldPrincipal.email);
    expect(
      (await call(t, { method: 'GET', url: `/api/institutes/${school.id}`, bearer: oldBearer })).statusCode,
    ).toBe(200);

    const accepted = await accept(bearer, invitationId);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ invitation: { state: 'accettato', kind: 'passaggio' } });
    expect(accepted.json()).not.toHaveProperty('replacedUserId');
    expect(await instituteRow(school.id)).toMatchObject({
      principalUserId: successor.id,
      firstContactUserId: contact.id,
      adhesionState: 'attivo',
    });
    expect(await rolesOf(successor.id)).toEqual(['school.principal', 'teacher']);
    // The old principal keeps the account, the role and the other school; this one is no longer theirs.
    expect(await rolesOf(oldPrincipal.id)).toEqual(['school.principal']);
    expect(
      (await call(t, { method: 'GET', url: `/api/institutes/${school.id}`, bearer: oldBearer })).statusCode,
    ).toBe(403);
    expect(
      (await call(t, { method: 'GET', url: `/api/institutes/${otherSchool.id}`, bearer: oldBearer }))
        .statusCode,
    ).toBe(200);
    expect((await call(t, { method: 'GET', url: `/api/institutes/${school.id}`, bearer })).statusCode).toBe(
      200,
    );
    const [notice] = await messagesTo(t, oldPrincipal.email);
    expect(notice!.templateKey).toBe('email.passaggio-concluso');
    expect(notice!.textBody).toMatch(
      /Persona Numero \d+ è il nuovo dirigente scolastico[\s\S]*il tuo accesso a questo istituto[\s\S]*terminato[\s\S]*resta valida/,
    );
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'institute.handover'), eq(auditLog.entityId, String(school.id))));
    expect(audit).toMatchObject({
      actorUserId: successor.id,
      before: { principalUserId: oldPrincipal.id },
      after: { principalUserId: successor.id, adhesionState: 'attivo', adhesionKept: true },
    });
  });

  it('a new address gets an account and the password link; the new principal signs a new version when nothing was signed, the old one loses a role they no longer hold', async () => {
    const oldPrincipal = await person('school.principal');
    const school = await institute('iscritto', { principalUserId: oldPrincipal.id });
    const cromos = await login(t, 'cromos@demo.test');
    const taxCode = nextTaxCode();
    const res = await invite(
      cromos,
      school.id,
      body(
        { email: 'Nuovo.Dirigente@Scuola-Esempio.it', firstName: 'Nadia', lastName: 'Nuova', taxCode },
        'school.principal',
      ),
    );
    expect(res.statusCode, res.body).toBe(201);
    const [created] = await db()
      .select()
      .from(users)
      .where(eq(users.email, 'nuovo.dirigente@scuola-esempio.it'));
    expect(created).toMatchObject({ firstName: 'Nadia', taxCode, phone: null, emailVerifiedAt: null });
    expect(await rolesOf(created!.id)).toEqual([]);
    const token = await linkToken(t, created!.email, 'email.passaggio-invito');
    const reset = await call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: STRONG_PASSWORD, password_confirmation: STRONG_PASSWORD },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // The link is single use.
    const reused = await call(t, {
      method: 'POST',
      url: '/api/auth/reset-password',
      body: { token, password: STRONG_PASSWORD, password_confirmation: STRONG_PASSWORD },
    });
    expect(reused.statusCode).toBe(400);
    const bearer = await login(t, created!.email, STRONG_PASSWORD);
    const accepted = await accept(bearer, res.json().invitation.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect((await instituteRow(school.id)).principalUserId).toBe(created!.id);
    expect(await rolesOf(oldPrincipal.id)).toEqual([]);
    const me = await call(t, { method: 'GET', url: '/api/auth/me', bearer });
    expect(me.json().user).toMatchObject({ mustSignPrincipalDocument: true });
    const [notice] = await messagesTo(t, oldPrincipal.email);
    expect(notice!.textBody).toMatch(/lo firmerà il nuovo dirigente, in una nuova versione/);
  });

  it('a first contact is replaced by the principal of the institute; the old one loses the access', async () => {
    const principal = await person('school.principal');
    const oldContact = await person('institute.first-contact');
    const school = await institute('attivo', {
      principalUserId: principal.id,
      firstContactUserId: oldContact.id,
    });
    const successor = await person();
    const head = await login(t, principal.email);
    // The principal names a first contact, never a principal.
    const refused = await invite(head, school.id, body(successor, 'school.principal'));
    expect(refused.json()).toMatchObject({ statusCode: 403, code: 'forbidden' });
    const res = await invite(head, school.id, body(successor, 'institute.first-contact'));
    expect(res.statusCode, res.body).toBe(201);
    const accepted = await accept(await login(t, successor.email), res.json().invitation.id);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await instituteRow(school.id)).toMatchObject({
      principalUserId: principal.id,
      firstContactUserId: successor.id,
    });
    expect(await rolesOf(oldContact.id)).toEqual([]);
    expect(await rolesOf(successor.id)).toEqual(['institute.first-contact']);
    expect((await messagesTo(t, oldContact.email))[0]!.textBody).toMatch(
      /nuovo referente per il programma[\s\S]*L’adesione dell’istituto non cambia/,
    );
  });
});

describe('who may start, see and cancel a handover', () => {
  it('answers 401, 403 and 404 per role and institute, and changes nothing', async () => {
    const principal = await person('school.principal');
    const contact = await person('institute.first-contact');
    const school = await institute('attivo', {
      principalUserId: principal.id,
      firstContactUserId: contact.id,
    });
    const otherHead = await person('school.principal');
    await institute('attivo', { principalUserId: otherHead.id });
    const successor = await person();
    const payload = body(successor, 'institute.first-contact');

    expect((await call(t, { method: 'POST', url: handovers(school.id), body: payload })).statusCode).toBe(
      401,
    );
    expect((await call(t, { method: 'GET', url: handovers(school.id) })).statusCode).toBe(401);
    for (const email of ['utenti@demo.test', 'insegnante@demo.test', 'rilevatore@demo.test']) {
      const bearer = await login(t, email);
      expect((await invite(bearer, school.id, payload)).statusCode, email).toBe(403);
    }
    // The first contact reads but does not name; another school's principal does neither.
    const asContact = await login(t, contact.email);
    expect((await invite(asContact, school.id, payload)).statusCode).toBe(403);
    const asOther = await login(t, otherHead.email);
    expect((await invite(asOther, school.id, payload)).statusCode).toBe(403);
    expect((await call(t, { method: 'GET', url: handovers(school.id), bearer: asOther })).statusCode).toBe(
      403,
    );
    expect((await invite(staff, 987654321, payload)).statusCode).toBe(404);
    const none = await db()
      .select()
      .from(enrolmentInvitations)
      .where(eq(enrolmentInvitations.instituteId, school.id));
    expect(none).toEqual([]);

    // Cancel: the principal cancels a first contact's invitation; staff any; others 403; unknown 404.
    const asHead = await login(t, principal.email);
    const created = await invite(asHead, school.id, payload);
    const id: number = created.json().invitation.id;
    const cancelUrl = `${handovers(school.id)}/${id}/cancel`;
    expect((await call(t, { method: 'POST', url: cancelUrl, bearer: asContact })).statusCode).toBe(403);
    expect((await call(t, { method: 'POST', url: cancelUrl, bearer: asOther })).statusCode).toBe(403);
    expect(
      (await call(t, { method: 'POST', url: `${handovers(school.id)}/987654321/cancel`, bearer: staff }))
        .statusCode,
    ).toBe(404);
    const cancelled = await call(t, { method: 'POST', url: cancelUrl, bearer: asHead });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({
      invitation: { id, state: 'annullato' },
      message: 'Invito annullato: la persona non può più accettarlo.',
    });
    expect((await call(t, { method: 'POST', url: cancelUrl, bearer: staff })).json()).toMatchObject({
      statusCode: 409,
      code: 'invitation_not_pending',
    });
    const refused = await accept(await login(t, successor.email), id);
    expect(refused.json()).toMatchObject({ statusCode: 409, code: 'invitation_cancelled' });
    expect((await instituteRow(school.id)).firstContactUserId).toBe(contact.id);
  });
});

describe('the rules of a handover', () => {
  it('refuses the current holder and a staff address (422), a bad body (422), a school not enrolled or withdrawn (409)', async () => {
    const principal = await person('school.principal');
    const school = await institute('adesione_firmata', { principalUserId: principal.id });
    const holder = await invite(staff, school.id, body(principal, 'school.principal'));
    expect(holder.statusCode).toBe(422);
    expect(holder.json().errors.email).toEqual([
      'Questa persona ricopre già il ruolo nell’istituto: indica la persona che la sostituisce.',
    ]);
    const staffAddress = await invite(
      staff,
      school.id,
      body({ email: 'CROMOS@demo.test', taxCode: nextTaxCode() }, 'school.principal'),
    );
    expect(staffAddress.statusCode).toBe(422);
    expect(staffAddress.json().errors.email[0]).toMatch(/personale del programma/);
    const bad = await invite(staff, school.id, { role: 'teacher', email: 'x', taxCode: 'ABC' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'role',
      'taxCode',
    ]);
    for (const state of ['ritirato', 'nessuna'] as const) {
      const closed = await institute(state);
      const res = await invite(
        staff,
        closed.id,
        body({ email: 'chiunque@scuola-esempio.it', taxCode: nextTaxCode() }, 'school.principal'),
      );
      expect(res.json()).toMatchObject({
        statusCode: 409,
        code: state === 'ritirato' ? 'institute_closed' : 'not_enrolled',
      });
    }
    expect(
      await db().select().from(enrolmentInvitations).where(eq(enrolmentInvitations.instituteId, school.id)),
    ).toEqual([]);
    expect(await db().select().from(users).where(eq(users.email, 'chiunque@scuola-esempio.it'))).toEqual([]);
  });

  it('a newer invitation replaces the older; a withdrawn school’s invitation can no longer be accepted; a wrong codice fiscale changes nothing', async () => {
    const principal = await person('school.principal');
    const school = await institute('adesione_firmata', { principalUserId: principal.id });
    const first = await person();
    const second = await person();
    const older = await invite(staff, school.id, body(first, 'school.principal'));
    const newer = await invite(
      staff,
      school.id,
      body({ ...second, taxCode: first.taxCode }, 'school.principal'),
    );
    expect(newer.statusCode, newer.body).toBe(201);
    const items = (await call(t, { method: 'GET', url: handovers(school.id), bearer: staff })).json().items;
    expect(items.map((i: { id: number; state: string }) => [i.id, i.state])).toEqual([
      [newer.json().invitation.id, 'in_attesa'],
      [older.json().invitation.id, 'annullato'],
    ]);
    expect((await accept(await login(t, first.email), older.json().invitation.id)).json()).toMatchObject({
      code: 'invitation_cancelled',
    });
    // The codice fiscale typed is not the second person's account's: 422, nothing changes.
    const bearer = await login(t, second.email);
    const mismatch = await accept(bearer, newer.json().invitation.id);
    expect(mismatch.json()).toMatchObject({ statusCode: 422, code: 'tax_code_mismatch' });
    expect((await instituteRow(school.id)).principalUserId).toBe(principal.id);
    // Withdrawn meanwhile: the pending invitation is refused.
    const third = await invite(staff, school.id, body(second, 'school.principal'));
    await db().update(institutes).set({ adhesionState: 'ritirato' }).where(eq(institutes.id, school.id));
    expect((await accept(bearer, third.json().invitation.id)).json()).toMatchObject({
      statusCode: 409,
      code: 'institute_closed',
    });
    expect((await instituteRow(school.id)).principalUserId).toBe(principal.id);
    expect(await rolesOf(second.id)).toEqual([]);
  });
});
