import { and, eq, sql, type SQL } from 'drizzle-orm';
import { schoolSites, visitReassignments, visits } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { rawRows, rowValue } from '../../lib/list.ts';

// Visits handed from one detector to another (decision 061): a planned visit follows its plesso, and
// whoever held a visit before may still send the report they wrote offline (kept as a conflict).

/** The planned visits of the plessi `sites` names that are not `to`'s yet: what an assignment moves. */
function movableVisits(sites: SQL | undefined, to: number): SQL {
  return sql`${visits.state} = 'pianificata' and ${visits.detectorUserId} <> ${to}
    and ${visits.schoolSiteId} in (select ${schoolSites.id} from ${schoolSites} where ${sites ?? sql`true`})`;
}

/** How many planned visits an assignment of the plessi `sites` to detector `to` would move. */
export async function countVisitsToMove(
  db: DbOrTx,
  sites: SQL | undefined,
  to: number | null,
): Promise<number> {
  if (to === null) return 0;
  const [row] = await rawRows(
    db,
    sql`select count(*)::int as n from ${visits} where ${movableVisits(sites, to)}`,
  );
  return rowValue.int(row?.n ?? 0);
}

/**
 * Moves the planned visits of the plessi `sites` to detector `to`, each with its reassignment row, in
 * one statement (inside the assignment's transaction, the plessi locked); answers each visit moved and
 * its former holder. Removing a plesso's detector (`to` null) moves nothing: nobody would hold them.
 */
export async function moveVisitsOfSites(
  tx: DbOrTx,
  sites: SQL | undefined,
  to: number | null,
  byUserId: number | null,
  now: Date,
): Promise<{ visitId: number; fromDetectorUserId: number }[]> {
  if (to === null) return [];
  const at = now.toISOString();
  const rows = await rawRows(
    tx,
    sql`with moving as (
          select ${visits.id} as id, ${visits.detectorUserId} as from_id from ${visits}
          where ${movableVisits(sites, to)}
          order by ${visits.id} for update
        ), moved as (
          update ${visits} set detector_user_id = ${to}, updated_at = ${at}::timestamptz
          from moving where ${visits.id} = moving.id
          returning moving.id, moving.from_id
        )
        insert into ${visitReassignments}
          (visit_id, from_detector_user_id, to_detector_user_id, reassigned_by_user_id, reassigned_at)
        select id, from_id, ${to}, ${byUserId}, ${at}::timestamptz from moved
        returning visit_id, from_detector_user_id`,
  );
  return rows
    .map((r) => ({
      visitId: rowValue.int(r.visit_id),
      fromDetectorUserId: rowValue.int(r.from_detector_user_id),
    }))
    .sort((a, b) => a.visitId - b.visitId);
}

/** One visit handed to `to` (staff accepted another detector's report on it), with its reassignment row. */
export async function reassignVisit(
  tx: DbOrTx,
  visitId: number,
  change: { from: number; to: number; byUserId: number | null },
  now: Date,
): Promise<void> {
  await tx.update(visits).set({ detectorUserId: change.to, updatedAt: now }).where(eq(visits.id, visitId));
  await tx.insert(visitReassignments).values({
    visitId,
    fromDetectorUserId: change.from,
    toDetectorUserId: change.to,
    reassignedByUserId: change.byUserId,
    reassignedAt: now,
  });
}

/** Whether `userId` held the visit before it was handed to someone else. */
export async function heldBefore(db: DbOrTx, visitId: number, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: visitReassignments.id })
    .from(visitReassignments)
    .where(and(eq(visitReassignments.visitId, visitId), eq(visitReassignments.fromDetectorUserId, userId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Who may send a visit's report (the route's owners, decision 061): its detector and whoever held it
 * before, in one statement; undefined for an unknown visit.
 */
export async function visitReportOwners(db: DbOrTx, visitId: number) {
  const [row] = await db
    .select({
      detector: visits.detectorUserId,
      former: sql<
        unknown[]
      >`coalesce(array_agg(distinct ${visitReassignments.fromDetectorUserId}) filter (where ${visitReassignments.id} is not null), '{}')`,
    })
    .from(visits)
    .leftJoin(visitReassignments, eq(visitReassignments.visitId, visits.id))
    .where(eq(visits.id, visitId))
    .groupBy(visits.id);
  return row && { ownerUserIds: [row.detector, ...row.former.map(Number)] };
}
