import { and, eq } from 'drizzle-orm';
import { deletionRequests } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

/** When the user's open (ricevuta) deletion request was made, if there is one. */
export async function findOpenDeletionRequest(
  db: DbOrTx,
  userId: number,
): Promise<{ id: number; createdAt: Date } | undefined> {
  const [open] = await db
    .select({ id: deletionRequests.id, createdAt: deletionRequests.createdAt })
    .from(deletionRequests)
    .where(and(eq(deletionRequests.userId, userId), eq(deletionRequests.state, 'ricevuta')));
  return open;
}

/** Records a deletion request. */
export async function insertDeletionRequest(
  db: DbOrTx,
  userId: number,
  reason: string | null,
  now: Date,
): Promise<{ id: number; createdAt: Date }> {
  const [row] = await db
    .insert(deletionRequests)
    .values({ userId, reason, createdAt: now })
    .returning({ id: deletionRequests.id, createdAt: deletionRequests.createdAt });
  return row!;
}
