import { asc, eq, inArray } from 'drizzle-orm';
import { schoolSites, users, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

// What the e-mails of field work name: the visits with their plesso, and whom to write to.

/** The visits with their plesso, soonest first. */
export function visitsWithSites(db: DbOrTx, visitIds: number[]) {
  return db
    .select({
      id: visits.id,
      scheduledAt: visits.scheduledAt,
      siteId: schoolSites.id,
      siteName: schoolSites.name,
      siteCode: schoolSites.ministryCode,
    })
    .from(visits)
    .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
    .where(inArray(visits.id, visitIds))
    .orderBy(asc(visits.scheduledAt), asc(visits.id));
}

/** A user's first name and e-mail. */
export async function recipient(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ firstName: users.firstName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
