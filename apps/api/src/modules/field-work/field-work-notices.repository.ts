import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

// Whom the e-mails of field work are written to.

/** A user's first name and e-mail. */
export async function recipient(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ firstName: users.firstName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
