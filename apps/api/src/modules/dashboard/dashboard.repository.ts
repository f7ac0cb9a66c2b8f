import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { ADHESION_STATES, TEACHER_REVIEW_STATES } from '@portale/shared/registry';
import type { CeilingAlert, DashboardSummary } from '@portale/shared/dashboard';
import { auditLog, institutes, schoolSites, tallies } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { countAll } from '../../lib/list.ts';
import { CEILING_REACHED_ACTION } from '../../plugins/rate-limits.ts';

function countsBy<K extends string>(
  keys: readonly K[],
  rows: { key: string; n: number }[],
): Record<K, number> {
  const counts = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const row of rows) if (row.key in counts) counts[row.key as K] = row.n;
  return counts;
}

/**
 * Live counts: the registry's straight from its tables (fixed size), the teachers' and the review
 * queues' from the tallies their writes keep (decision 033: grouping every teacher and review on each
 * call grew with the programme).
 */
export async function summarise(
  db: DbOrTx,
  now: Date,
  ceilingAlerts: CeilingAlert[] = [],
): Promise<DashboardSummary> {
  const [byState, sites, counted] = await Promise.all([
    db
      .select({ key: institutes.adhesionState, n: countAll })
      .from(institutes)
      .groupBy(institutes.adhesionState),
    db
      .select({
        total: countAll,
        participating: sql<number>`count(*) filter (where ${schoolSites.participating})::int`,
      })
      .from(schoolSites),
    // Teachers per review state, and what the review queues hold (the counts of /portale/revisioni/{type}).
    db
      .select({ name: tallies.name, key: tallies.key, n: sql<number>`${tallies.n}::int` })
      .from(tallies)
      .where(inArray(tallies.name, ['teacher_review_state', 'reviews:adesioni', 'reviews:insegnanti'])),
  ]);
  const byReview = counted.filter((r) => r.name === 'teacher_review_state');
  const pending = counted
    .filter((r) => r.name.startsWith('reviews:') && r.key === 'in_attesa')
    .map((r) => ({ key: r.name.slice('reviews:'.length), n: r.n }));
  const awaiting = countsBy(['adesioni', 'insegnanti'] as const, pending);
  const institutesByAdhesionState = countsBy(ADHESION_STATES, byState);
  const teachersByReviewState = countsBy(TEACHER_REVIEW_STATES, byReview);
  return {
    institutesTotal: Object.values(institutesByAdhesionState).reduce((a, b) => a + b, 0),
    institutesByAdhesionState,
    schoolSitesTotal: sites[0]?.total ?? 0,
    participatingSchoolSites: sites[0]?.participating ?? 0,
    teachersTotal: registeredTeachers(teachersByReviewState),
    teachersByReviewState,
    awaitingReview: awaiting,
    ceilingAlerts,
    at: now.toISOString(),
  };
}

/** The portal-wide ceilings reached since `since` (audit rows written by plugins/rate-limits.ts), newest first. */
export async function ceilingsReachedSince(db: DbOrTx, since: Date) {
  return db
    .select({ ceiling: auditLog.entityId, after: auditLog.after, at: auditLog.at })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'ceiling'),
        eq(auditLog.action, CEILING_REACHED_ACTION),
        gt(auditLog.at, since),
      ),
    )
    .orderBy(desc(auditLog.at))
    .limit(20);
}

/**
 * The one definition of "insegnanti ed educatori registrati" (issue 35, item 9; decision 040), shared by
 * the public home and the staff dashboard: every registration (teacher profile) whose review is not
 * `respinta` — waiting, to correct or approved. A rejected registration is not a registered teacher.
 */
export function registeredTeachers(byReviewState: Record<string, number>): number {
  return Object.entries(byReviewState).reduce((sum, [state, n]) => (state === 'respinta' ? sum : sum + n), 0);
}
