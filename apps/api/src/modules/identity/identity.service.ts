import type { IdentityFailure } from '@portale/shared/identity';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  findLoginAccount,
  ipKey,
  recordLoginFailure,
  withAccountLock,
} from '../auth/index.ts';
import type { VerifiedPerson } from './identity-linking.ts';
import type { LogoutKeys } from './identity-sessions.ts';
import {
  deleteIdentity,
  findPendingIdentity,
  insertIdentity,
  insertPendingIdentity,
  markTaxCodeVerified,
  usePendingIdentity,
} from './identity.repository.ts';

/** A pending identity as `findPendingIdentity` reads it. */
export type PendingIdentity = NonNullable<Awaited<ReturnType<typeof findPendingIdentity>>>;

/**
 * A refused login with an identity provider, audited (no session follows). `actor.userId` is the
 * account concerned, when one is known.
 */
export async function auditLoginFailure(
  db: Db,
  actor: Actor,
  provider: PendingIdentity['provider'],
  failure: IdentityFailure,
  detail?: Record<string, unknown>,
): Promise<void> {
  await auditWrite(db, actor, {
    action: `identity.login.${failure}`,
    entity: 'identity',
    entityId: provider,
    ...(detail ? { after: detail } : {}),
  });
}

/**
 * A verified identity held for this browser until its account is proved with a password (`userId`
 * given) or a registration completes it (`userId` null), audited.
 */
export async function holdPendingIdentity(
  db: Db,
  actor: Actor,
  person: VerifiedPerson,
  hold: { userId: number | null; tokenHash: string; expiresAt: Date; logoutKeys: LogoutKeys | null },
): Promise<void> {
  const { userId } = hold;
  await insertPendingIdentity(db, {
    tokenHash: hold.tokenHash,
    provider: person.provider,
    subject: person.subject,
    taxCode: person.taxCode,
    firstName: person.firstName,
    lastName: person.lastName,
    acr: person.acr,
    userId,
    attributes: person.attributes,
    logoutKeys: hold.logoutKeys,
    now: actor.at,
    expiresAt: hold.expiresAt,
  });
  await auditWrite(
    db,
    { ...actor, userId },
    {
      action: userId ? 'identity.link.pending' : 'identity.registration.pending',
      entity: 'identity',
      entityId: person.provider,
      after: { taxCode: person.taxCode },
    },
  );
}

/** Links an identity whose codice fiscale matches a verified account's (no password needed), audited. */
export async function linkVerifiedIdentity(
  db: Db,
  actor: Actor,
  person: VerifiedPerson,
  userId: number,
  linkedAt: Date,
): Promise<void> {
  const { provider, subject, taxCode, acr } = person;
  await insertIdentity(db, { provider, subject, taxCode, acr, userId }, linkedAt);
  await auditWrite(
    db,
    { ...actor, userId },
    { action: 'identity.linked', entity: 'user', entityId: userId, after: { provider, acr } },
  );
}

export type PasswordLinkOutcome =
  | { ok: true; userId: number }
  /** A wrong password, an inactive account or a throttled one; the throttle counted it. */
  | { ok: false; reason: 'bad-credentials' }
  /** The pending identity was used meanwhile (or is not a link). */
  | { ok: false; reason: 'gone' };

/**
 * Links a pending identity to its account once the account's password proves control of it: the
 * same throttle and lock as the password login; the identity and the verified codice fiscale are
 * written in one transaction, then audited.
 */
export async function linkWithPassword(
  deps: { db: Db; clock: Clock; throttle: Parameters<typeof assertLoginAllowed>[3] },
  actor: Actor,
  pending: PendingIdentity,
  password: string,
): Promise<PasswordLinkOutcome> {
  const { clock, throttle } = deps;
  if (!pending.userId || !pending.accountEmail) return { ok: false, reason: 'gone' };
  const userId = pending.userId;
  const email = pending.accountEmail.toLowerCase();
  const keys = { account: accountKey(email), ip: ipKey(actor.ip ?? '') };
  // The password proves control of the account: the same throttle and lock as the password login.
  const proved = await withAccountLock(deps.db, keys.account, async (db) => {
    await assertLoginAllowed(db, keys, clock.now(), throttle);
    const found = await findLoginAccount(db, email);
    const ok = found?.id === userId && (await verifyPassword(found.passwordHash, password));
    if (!ok || found.status !== 'active') {
      await recordLoginFailure(db, keys, clock.now(), throttle);
      return false;
    }
    await clearAccountThrottle(db, email);
    return true;
  });
  const who = { userId, ip: actor.ip };
  if (!proved) {
    await auditWrite(
      deps.db,
      { ...who, at: clock.now() },
      { action: 'identity.link.failed', entity: 'user', entityId: userId },
    );
    return { ok: false, reason: 'bad-credentials' };
  }
  return completeLink(deps, who, pending, 'password');
}

/**
 * Once the account is proved (its password, or a code to its confirmed e-mail): the identity and the
 * verified codice fiscale written in one transaction, the pending identity used up, then audited.
 */
export async function completeLink(
  deps: { db: Db; clock: Clock },
  who: { userId: number; ip: string | null },
  pending: PendingIdentity,
  proof: 'password' | 'email_code',
): Promise<{ ok: true; userId: number } | { ok: false; reason: 'gone' }> {
  const { clock } = deps;
  const { userId } = who;
  const now = clock.now();
  const linked = await withTransaction(deps.db, async (tx) => {
    if (!(await usePendingIdentity(tx, pending.id, now))) return false;
    const { provider, subject, taxCode, acr } = pending;
    await insertIdentity(tx, { userId, provider, subject, taxCode, acr }, now);
    await markTaxCodeVerified(tx, userId, taxCode, provider, now);
    return true;
  });
  if (!linked) return { ok: false, reason: 'gone' };
  await auditWrite(
    deps.db,
    { ...who, at: clock.now() },
    {
      action: 'account.tax_code.verified',
      entity: 'user',
      entityId: userId,
      after: { taxCode: pending.taxCode, source: pending.provider, at: now.toISOString() },
    },
  );
  await auditWrite(
    deps.db,
    { ...who, at: clock.now() },
    {
      action: 'identity.linked',
      entity: 'user',
      entityId: userId,
      after: { provider: pending.provider, acr: pending.acr, proof },
    },
  );
  return { ok: true, userId };
}

/** Unlinks the user's own identity of a provider, audited; false when none was linked. */
export async function unlinkIdentity(
  db: Db,
  actor: Actor & { userId: number },
  provider: PendingIdentity['provider'],
): Promise<boolean> {
  if (!(await deleteIdentity(db, actor.userId, provider))) return false;
  await auditWrite(db, actor, {
    action: 'identity.unlinked',
    entity: 'user',
    entityId: actor.userId,
    after: { provider },
  });
  return true;
}
