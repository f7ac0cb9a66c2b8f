import { desc, eq, sql } from 'drizzle-orm';
import { detectorDeviceQueues, visitReportSubmissions } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';

// A detector's page for staff (issue 39, decision 051): each device's queue and the conflicts' counts.

export async function devicesOf(db: DbOrTx, userId: number) {
  const rows = await db
    .select()
    .from(detectorDeviceQueues)
    .where(eq(detectorDeviceQueues.userId, userId))
    .orderBy(desc(detectorDeviceQueues.reportedAt));
  return rows.map((r) => ({
    deviceId: r.deviceId,
    unsent: r.unsent,
    oldestUnsentAt: r.oldestUnsentAt?.toISOString() ?? null,
    reportedAt: r.reportedAt.toISOString(),
  }));
}

export async function conflictCountsOf(db: DbOrTx, userId: number) {
  const s = visitReportSubmissions;
  const [row] = await db
    .select({
      open: sql<number>`count(*) filter (where ${s.resolution} is null)::int`,
      resolved: sql<number>`count(*) filter (where ${s.resolution} is not null)::int`,
    })
    .from(s)
    .where(sql`${s.detectorUserId} = ${userId} and ${s.outcome} = 'conflict'`);
  return { open: row?.open ?? 0, resolved: row?.resolved ?? 0 };
}
