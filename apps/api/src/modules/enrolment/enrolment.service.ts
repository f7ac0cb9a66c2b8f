import { ROLE_LABELS, type Role } from '@portale/shared/auth';
import {
  ENROLMENT_INVITATION_ROLES,
  ENROLMENT_INVITATION_TTL_DAYS,
  ENROLMENT_MESSAGES,
  ENROLMENT_VERIFICATION_MAX_AGE_MINUTES,
  type EnrolmentCreated,
  type EnrolmentPerson,
  type EnrolmentVerification,
} from '@portale/shared/enrolment';
import { maskPhone } from '@portale/shared/accounts';
import type { EnrolmentBodySchema } from '@portale/shared/enrolment';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { withTransaction, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { issuePasswordLink } from '../accounts/index.ts';
import { transitionAdhesion } from '../adhesions/index.ts';
import { enqueueMessage } from '../messages/index.ts';
import { clearInstituteTotals, clearSchoolSiteTotals } from '../registry/index.ts';
import * as repo from './enrolment.repository.ts';

type Enrolment = z.output<typeof EnrolmentBodySchema>;

/** A verified phone serves one enrolment, within an hour of its verification. */
export const VERIFICATION_MAX_AGE_MS = ENROLMENT_VERIFICATION_MAX_AGE_MINUTES * 60_000;
/** The link to choose a password of a new principal or first contact (a reset link lasts an hour). */
export const ENROLMENT_LINK_TTL_MS = 7 * 24 * 60 * 60_000;

const NEXT_STEP = {
  principal:
    'Dopo l’accesso il portale ti chiederà di firmare il documento di adesione formale dell’istituto.',
  firstContact:
    'Il dirigente scolastico firmerà il documento di adesione formale dopo l’accesso; tu potrai prepararlo e tenere aggiornati i dati dell’istituto e dei plessi.',
};

interface Context {
  now: Date;
  ip: string;
  webUrl: string;
  /**
   * The applicant verified with SPID/CIE (decision 054): which person they are, and the link of the
   * identity to that person's account when the enrolment creates it.
   */
  verified?: { as: 'principal' | 'firstContact'; link(tx: Tx, userId: number): Promise<void> };
}

/** Why a verification cannot (or can) start an enrolment; `undefined` when it can. */
function verificationProblem(
  row: repo.VerificationRow | undefined,
  now: Date,
): Exclude<EnrolmentVerification['status'], 'usable'> | undefined {
  if (!row || !repo.isAnonymousVerification(row)) return 'invalid';
  if (!row.verifiedAt) return 'unverified';
  if (row.enrolmentId !== null) return 'used';
  if (row.verifiedAt.getTime() + VERIFICATION_MAX_AGE_MS < now.getTime()) return 'expired';
  return undefined;
}

const PROBLEM_MESSAGES = {
  invalid: ENROLMENT_MESSAGES.verificationInvalid,
  unverified: ENROLMENT_MESSAGES.verificationUnverified,
  expired: ENROLMENT_MESSAGES.verificationExpired,
  used: ENROLMENT_MESSAGES.verificationUsed,
} as const;

/** The answer of `GET /api/enrolments/verifications/:id` (the page checks it before showing step 2). */
export async function verificationStatus(
  db: Db,
  verificationId: string,
  now: Date,
): Promise<EnrolmentVerification> {
  const row = await repo.findVerification(db, verificationId);
  const problem = verificationProblem(row, now);
  if (problem)
    return {
      status: problem,
      message: PROBLEM_MESSAGES[problem],
      phoneMasked: problem === 'invalid' || !row ? null : maskPhone(row.phone),
      usableUntil: null,
    };
  return {
    status: 'usable',
    message: 'Numero di cellulare verificato.',
    phoneMasked: maskPhone(row!.phone),
    usableUntil: new Date(row!.verifiedAt!.getTime() + VERIFICATION_MAX_AGE_MS).toISOString(),
  };
}

function assertUsableVerification(
  row: repo.VerificationRow | undefined,
  now: Date,
): asserts row is repo.VerificationRow {
  const problem = verificationProblem(row, now);
  if (!problem) return;
  if (problem === 'used') throw new HttpError(409, 'verification_used', PROBLEM_MESSAGES.used);
  throw new HttpError(422, `verification_${problem}`, PROBLEM_MESSAGES[problem]);
}

interface Linked {
  user: repo.EnrolmentUser;
  created: boolean;
  roles: Role[];
}

/**
 * The user of a person: the account of the address, or a new one with an unusable random password
 * (the e-mail's link sets it). A new user's phone counts as verified only when it is the number just
 * verified by SMS; the e-mail is verified when they use the link. An existing account is only linked:
 * what an anonymous applicant typed never overwrites its data.
 */
async function userOf(
  tx: Tx,
  person: EnrolmentPerson,
  passwordHash: string,
  verification: repo.VerificationRow,
  now: Date,
) {
  const existing = await repo.findUserByEmail(tx, person.email);
  if (existing) return { user: existing, created: false };
  const phoneVerifiedAt = person.phone === verification.phone ? verification.verifiedAt : null;
  const created = await repo.insertUserIfAbsent(
    tx,
    {
      email: person.email,
      passwordHash,
      firstName: person.firstName,
      lastName: person.lastName,
      phone: person.phone,
      taxCode: person.taxCode,
      phoneVerifiedAt,
    },
    now,
  );
  if (created) return { user: created, created: true };
  // A concurrent enrolment created the same address a moment ago: link that account.
  const raced = await repo.findUserByEmail(tx, person.email);
  if (!raced) throw new Error('user vanished during enrolment');
  return { user: raced, created: false };
}

/** The e-mail of an account created by the enrolment: the link chooses its password. */
async function notify(
  tx: Tx,
  linked: Linked,
  institute: { name: string; ministryCode: string },
  ctx: Context,
) {
  const data = {
    instituteName: institute.name,
    ministryCode: institute.ministryCode,
    rolesLabel: linked.roles.map((r) => ROLE_LABELS[r]).join(' e '),
    nextStep: linked.roles.includes('school.principal') ? NEXT_STEP.principal : NEXT_STEP.firstContact,
  };
  await issuePasswordLink(tx, linked.user, {
    now: ctx.now,
    ip: ctx.ip,
    webUrl: ctx.webUrl,
    ttlMs: ENROLMENT_LINK_TTL_MS,
    templateKey: 'email.iscrizione-invito',
    data: { ...data, forgotLink: `${ctx.webUrl}/auth/forgot-password` },
  });
}

/**
 * Invites an existing account (issue 32): an invitation row (the roles, the codice fiscale typed for
 * this person) and an e-mail pointing to the portal, where the owner, signed in, accepts or declines.
 */
async function invite(
  tx: Tx,
  person: Linked & { taxCode: string; enrolmentId: number; instituteId: number },
  institute: { name: string; ministryCode: string },
  ctx: Context,
) {
  const invitationId = await repo.insertInvitation(tx, {
    enrolmentId: person.enrolmentId,
    instituteId: person.instituteId,
    userId: person.user.id,
    roles: person.roles.filter((r): r is (typeof ENROLMENT_INVITATION_ROLES)[number] =>
      (ENROLMENT_INVITATION_ROLES as readonly string[]).includes(r),
    ),
    taxCode: person.taxCode,
    createdAt: ctx.now,
    expiresAt: new Date(ctx.now.getTime() + ENROLMENT_INVITATION_TTL_DAYS * 24 * 60 * 60_000),
  });
  await auditWrite(
    tx,
    { userId: null, ip: ctx.ip ?? null, at: ctx.now },
    {
      action: 'enrolment.invitation_sent',
      entity: 'enrolment_invitation',
      entityId: invitationId,
      after: { userId: person.user.id, instituteId: person.instituteId, roles: person.roles },
    },
  );
  await enqueueMessage(tx, {
    templateKey: 'email.iscrizione-invito-account',
    recipient: person.user.email,
    data: {
      instituteName: institute.name,
      ministryCode: institute.ministryCode,
      rolesLabel: person.roles.map((r) => ROLE_LABELS[r]).join(' e '),
      firstName: person.user.firstName,
      link: `${ctx.webUrl}/portale`,
      days: String(ENROLMENT_INVITATION_TTL_DAYS),
      forgotLink: `${ctx.webUrl}/auth/forgot-password`,
    },
    now: ctx.now,
  });
}

/** A unique index refused the row (the driver's error, or Drizzle's wrapper of it). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * Enrols an institute in one transaction: the verification (locked: one enrolment each), the
 * institute (locked; only from `nessuna`: of two simultaneous enrolments one wins, the other gets the
 * 409), its plessi, the principal and first-contact accounts (created or linked) with their roles,
 * the links on the institute, the participating plessi, the state → iscritto (dated transition and
 * audit), the enrolment row, its audit row and the e-mails. Nothing is written when any check fails.
 */
export async function enrolInstitute(db: Db, input: Enrolment, ctx: Context): Promise<EnrolmentCreated> {
  const { now, ip } = ctx;
  const samePerson = input.firstContact === null || input.firstContact.email === input.principal.email;
  // Hashed before the transaction (argon2 is slow): unusable random passwords for new accounts.
  const [principalHash, contactHash] = await Promise.all([
    hashPassword(randomToken(32)),
    samePerson ? Promise.resolve('') : hashPassword(randomToken(32)),
  ]);
  try {
    const result = await withTransaction(db, async (tx) => {
      const verification = await repo.lockVerification(tx, input.verificationId);
      assertUsableVerification(verification, now);
      const institute = await repo.lockInstitute(tx, input.instituteId);
      if (!institute) throw fieldError('instituteId', ENROLMENT_MESSAGES.instituteNotFound);
      if (institute.adhesionState !== 'nessuna')
        throw new HttpError(
          409,
          'already_enrolled',
          ENROLMENT_MESSAGES.alreadyEnrolled(institute.ministryCode),
        );
      const own = await repo.schoolSitesOfInstitute(tx, institute.id, input.schoolSiteIds);
      if (own.length !== input.schoolSiteIds.length)
        throw fieldError('schoolSiteIds', ENROLMENT_MESSAGES.schoolSiteForeign);

      await transitionAdhesion(tx, {
        instituteId: institute.id,
        to: 'iscritto',
        from: ['nessuna'],
        actorUserId: null,
        note: 'Iscrizione online',
        ip,
        at: now,
      });

      const principal = await userOf(tx, input.principal, principalHash, verification, now);
      const contact = samePerson
        ? principal
        : await userOf(tx, input.firstContact!, contactHash, verification, now);
      // Roles go only to the accounts created now (their owner proves the address with the link); an
      // existing account is invited and gets nothing until its owner accepts (issue 32).
      if (principal.created) await repo.grantRole(tx, principal.user.id, 'school.principal');
      if (contact.created) await repo.grantRole(tx, contact.user.id, 'institute.first-contact');
      await repo.setInstitutePeople(
        tx,
        institute.id,
        {
          principalUserId: principal.created ? principal.user.id : null,
          firstContactUserId: contact.created ? contact.user.id : null,
        },
        now,
      );
      const verifiedPerson = ctx.verified?.as === 'firstContact' ? contact : principal;
      if (ctx.verified && verifiedPerson.created) await ctx.verified.link(tx, verifiedPerson.user.id);
      await repo.markSitesParticipating(tx, own, now);
      const enrolmentId = await repo.insertEnrolment(tx, {
        instituteId: institute.id,
        phoneVerificationId: verification.id,
        applicantPhone: verification.phone,
        principalUserId: principal.user.id,
        firstContactUserId: contact.user.id,
        schoolSiteIds: own.map(String),
        privacyAcceptedAt: now,
        createdAt: now,
      });

      for (const person of samePerson ? [principal] : [principal, contact]) {
        if (!person.created) continue;
        await auditWrite(
          tx,
          { userId: null, ip: ip ?? null, at: now },
          {
            action: 'user.created_by_enrolment',
            entity: 'user',
            entityId: person.user.id,
            after: { email: person.user.email, enrolmentId },
          },
        );
      }

      const people: (Linked & { taxCode: string })[] = samePerson
        ? [
            {
              ...principal,
              roles: ['school.principal', 'institute.first-contact'],
              taxCode: input.principal.taxCode,
            },
          ]
        : [
            { ...principal, roles: ['school.principal'], taxCode: input.principal.taxCode },
            { ...contact, roles: ['institute.first-contact'], taxCode: input.firstContact!.taxCode },
          ];
      const invitedUserIds: number[] = [];
      const refusedStaffUserIds: number[] = [];
      for (const person of people) {
        if (person.created) {
          await notify(tx, person, institute, ctx);
          continue;
        }
        // A staff account is never made principal or first contact by an enrolment; the applicant
        // gets the same answer as for any address (nothing tells them the address is staff's).
        if (await repo.isStaffAccount(tx, person.user.id)) {
          refusedStaffUserIds.push(person.user.id);
          await auditWrite(
            tx,
            { userId: null, ip: ip ?? null, at: now },
            {
              action: 'enrolment.staff_account_named',
              entity: 'user',
              entityId: person.user.id,
              after: { enrolmentId, instituteId: institute.id, roles: person.roles },
            },
          );
          continue;
        }
        await invite(tx, { ...person, enrolmentId, instituteId: institute.id }, institute, ctx);
        invitedUserIds.push(person.user.id);
      }
      await auditWrite(
        tx,
        { userId: null, ip: ip ?? null, at: now },
        {
          action: 'institute.enrolled',
          entity: 'institute',
          entityId: institute.id,
          after: {
            enrolmentId,
            principalUserId: principal.user.id,
            firstContactUserId: contact.user.id,
            schoolSiteIds: own,
            applicantPhone: maskPhone(verification.phone),
            createdUserIds: [principal, contact].filter((p) => p.created).map((p) => p.user.id),
            invitedUserIds,
            refusedStaffUserIds,
          },
        },
      );

      return {
        enrolmentId,
        instituteId: institute.id,
        ministryCode: institute.ministryCode,
        instituteName: institute.name,
        principalEmail: input.principal.email,
        firstContactEmail: (input.firstContact ?? input.principal).email,
        schoolSiteCount: own.length,
        message: ENROLMENT_MESSAGES.accepted,
      };
    });
    clearInstituteTotals();
    clearSchoolSiteTotals();
    return result;
  } catch (error) {
    // Last line behind the locks: the unique verification column of `enrolments`.
    if (isUniqueViolation(error))
      throw new HttpError(409, 'verification_used', ENROLMENT_MESSAGES.verificationUsed);
    throw error;
  }
}
