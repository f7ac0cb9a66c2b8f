import { eq, inArray } from 'drizzle-orm';
import { schoolSites, users, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

// What the import of a detector's exported drafts reads (issue 39, decision 051).

export type VisitFacts = {
  id: number;
  detectorUserId: number;
  state: (typeof visits.$inferSelect)['state'];
  reviewState: (typeof visits.$inferSelect)['reviewState'];
  scheduledAt: Date;
  site: { id: number; name: string; ministryCode: string };
};

export async function visitsOf(db: DbOrTx, ids: number[]): Promise<Map<number, VisitFacts>> {
  const rows = await db
    .select({
      id: visits.id,
      detectorUserId: visits.detectorUserId,
      state: visits.state,
      reviewState: visits.reviewState,
      scheduledAt: visits.scheduledAt,
      siteId: schoolSites.id,
      siteName: schoolSites.name,
      siteCode: schoolSites.ministryCode,
    })
    .from(visits)
    .innerJoin(schoolSites, eq(schoolSites.id, visits.schoolSiteId))
    .where(inArray(visits.id, ids));
  return new Map(
    rows.map((r) => [r.id, { ...r, site: { id: r.siteId, name: r.siteName, ministryCode: r.siteCode } }]),
  );
}

export async function detectorName(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
