import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { identityLoginAttempts, pendingIdentities, userIdentities, users } from '../../db/schema/index.ts';

export type IdentityProvider = 'cie' | 'spid';

export async function insertLoginAttempt(
  db: Db,
  row: {
    provider: IdentityProvider;
    stateHash: string;
    browserHash: string;
    nonce: string;
    codeVerifier: string;
    /** SPID: the identity provider the user chose. */
    idpEntityId?: string;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  const { now, ...rest } = row;
  await db.insert(identityLoginAttempts).values({ ...rest, createdAt: now });
  // Old attempts are of no use once expired: each start removes those of the past day's end.
  await db
    .delete(identityLoginAttempts)
    .where(sql`${identityLoginAttempts.expiresAt} < ${new Date(now.getTime() - 86_400_000)}`);
}

export async function findLoginAttempt(db: Db, stateHash: string) {
  const [row] = await db
    .select()
    .from(identityLoginAttempts)
    .where(eq(identityLoginAttempts.stateHash, stateHash));
  return row;
}

/** Marks an attempt used; false when another request used it first (a replay). */
export async function useLoginAttempt(db: Db, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(identityLoginAttempts)
    .set({ usedAt: now })
    .where(and(eq(identityLoginAttempts.id, id), isNull(identityLoginAttempts.usedAt)))
    .returning({ id: identityLoginAttempts.id });
  return rows.length === 1;
}

export async function findIdentity(db: Db, provider: IdentityProvider, subject: string) {
  const [row] = await db
    .select({ id: userIdentities.id, userId: userIdentities.userId, status: users.status })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)));
  return row;
}

export async function touchIdentity(db: Db, id: number, acr: string | null, now: Date): Promise<void> {
  await db.update(userIdentities).set({ acr, lastLoginAt: now }).where(eq(userIdentities.id, id));
}

/** The accounts whose codice fiscale (self-declared or verified) is `taxCode`. */
export async function accountsWithTaxCode(db: Db, taxCode: string) {
  return db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      status: users.status,
      taxCodeVerifiedAt: users.taxCodeVerifiedAt,
    })
    .from(users)
    .where(sql`upper(${users.taxCode}) = ${taxCode}`)
    .orderBy(asc(users.id));
}

export async function insertIdentity(
  db: DbOrTx,
  row: { userId: number; provider: IdentityProvider; subject: string; taxCode: string; acr: string | null },
  now: Date,
): Promise<number> {
  const [inserted] = await db
    .insert(userIdentities)
    .values({ ...row, linkedAt: now, lastLoginAt: now })
    .returning({ id: userIdentities.id });
  return inserted!.id;
}

/** The account's codice fiscale, now proved by the provider (normalised as the provider gave it). */
export async function markTaxCodeVerified(
  db: DbOrTx,
  userId: number,
  taxCode: string,
  source: IdentityProvider,
  now: Date,
): Promise<void> {
  await db
    .update(users)
    .set({ taxCode, taxCodeVerifiedAt: now, taxCodeVerifiedSource: source, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function insertPendingIdentity(
  db: Db,
  row: {
    tokenHash: string;
    provider: IdentityProvider;
    subject: string;
    taxCode: string;
    firstName: string;
    lastName: string;
    acr: string | null;
    userId: number | null;
    attributes: Record<string, string>;
    logoutKeys: unknown;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  const { now, ...rest } = row;
  await db.insert(pendingIdentities).values({ ...rest, createdAt: now });
  // Verified data kept no longer than needed: rows a day past their expiry go at each new one.
  await db
    .delete(pendingIdentities)
    .where(sql`${pendingIdentities.expiresAt} < ${new Date(now.getTime() - 86_400_000)}`);
}

/** A pending identity still usable (not used, not expired), with the account's e-mail for a link. */
export async function findPendingIdentity(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      id: pendingIdentities.id,
      provider: pendingIdentities.provider,
      subject: pendingIdentities.subject,
      taxCode: pendingIdentities.taxCode,
      firstName: pendingIdentities.firstName,
      lastName: pendingIdentities.lastName,
      acr: pendingIdentities.acr,
      userId: pendingIdentities.userId,
      attributes: pendingIdentities.attributes,
      logoutKeys: pendingIdentities.logoutKeys,
      expiresAt: pendingIdentities.expiresAt,
      linkCodeHash: pendingIdentities.linkCodeHash,
      linkCodeSentAt: pendingIdentities.linkCodeSentAt,
      linkCodeExpiresAt: pendingIdentities.linkCodeExpiresAt,
      linkCodesSent: pendingIdentities.linkCodesSent,
      linkCodeFailures: pendingIdentities.linkCodeFailures,
      accountEmail: users.email,
      accountEmailVerifiedAt: users.emailVerifiedAt,
      accountFirstName: users.firstName,
      accountStatus: users.status,
    })
    .from(pendingIdentities)
    .leftJoin(users, eq(users.id, pendingIdentities.userId))
    .where(
      and(
        eq(pendingIdentities.tokenHash, tokenHash),
        isNull(pendingIdentities.usedAt),
        gt(pendingIdentities.expiresAt, now),
      ),
    );
  return row;
}

export async function usePendingIdentity(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(pendingIdentities)
    .set({ usedAt: now })
    .where(and(eq(pendingIdentities.id, id), isNull(pendingIdentities.usedAt)))
    .returning({ id: pendingIdentities.id });
  return rows.length === 1;
}

export async function identitiesOfUser(db: Db, userId: number) {
  const rows = await db
    .select({
      provider: userIdentities.provider,
      taxCode: userIdentities.taxCode,
      acr: userIdentities.acr,
      linkedAt: userIdentities.linkedAt,
      lastLoginAt: userIdentities.lastLoginAt,
    })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.linkedAt), asc(userIdentities.id));
  const [user] = await db
    .select({ at: users.taxCodeVerifiedAt, source: users.taxCodeVerifiedSource })
    .from(users)
    .where(eq(users.id, userId));
  return { rows, verifiedAt: user?.at ?? null, verifiedSource: user?.source ?? null };
}

/** `cie`/`spid` when the user's codice fiscale was proved by that provider; null while self-declared. */
export async function taxCodeVerifiedSource(db: DbOrTx, userId: number): Promise<IdentityProvider | null> {
  const [row] = await db
    .select({ source: users.taxCodeVerifiedSource, at: users.taxCodeVerifiedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row?.at ? row.source : null;
}

/** Removes the user's identity at `provider`; false when there was none. */
export async function deleteIdentity(db: Db, userId: number, provider: IdentityProvider): Promise<boolean> {
  const rows = await db
    .delete(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)))
    .returning({ id: userIdentities.id });
  return rows.length > 0;
}
