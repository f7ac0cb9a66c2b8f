import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/transaction.ts';
import { pendingIdentities } from '../../db/schema/index.ts';

/** A new code for a pending identity (the previous one stops holding), counted. */
export async function setLinkCode(
  db: DbOrTx,
  id: number,
  code: { hash: string; sentAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .update(pendingIdentities)
    .set({
      linkCodeHash: code.hash,
      linkCodeSentAt: code.sentAt,
      linkCodeExpiresAt: code.expiresAt,
      linkCodesSent: sql`${pendingIdentities.linkCodesSent} + 1`,
    })
    .where(eq(pendingIdentities.id, id));
}

/**
 * A wrong code typed: counted; at `max` the pending identity is used up (the person starts again from
 * the provider). Returns the failures so far.
 */
export async function addLinkCodeFailure(db: DbOrTx, id: number, max: number, now: Date): Promise<number> {
  const [row] = await db
    .update(pendingIdentities)
    .set({
      linkCodeFailures: sql`${pendingIdentities.linkCodeFailures} + 1`,
      usedAt: sql`case when ${pendingIdentities.linkCodeFailures} + 1 >= ${max} then ${now.toISOString()}::timestamptz else ${pendingIdentities.usedAt} end`,
    })
    .where(and(eq(pendingIdentities.id, id), isNull(pendingIdentities.usedAt)))
    .returning({ failures: pendingIdentities.linkCodeFailures });
  return row?.failures ?? max;
}
