import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { type ActionTarget, type ActionTargetFilter } from '@portale/shared/actions';
import {
  actionModels,
  actions,
  institutes,
  schoolSites,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { rowValue, searchCondition } from '../../lib/list.ts';

/** Actions whose state still needs the target's work: they can be overdue. */

// --- Bulk assignment ---

export interface BulkTargets {
  target: ActionTarget;
  targetIds?: number[];
  filter?: ActionTargetFilter;
}

/** The target rows a bulk assignment names: `select id from … where …` of the model's target table. */
function targetSelect(t: BulkTargets): { table: SQL; id: SQL; where: SQL | undefined } {
  const f = t.filter ?? {};
  if (t.target === 'istituto') {
    return {
      table: sql`${institutes}`,
      id: sql`${institutes.id}`,
      where: and(
        t.targetIds ? inArray(institutes.id, t.targetIds) : undefined,
        searchCondition(institutes.searchText, f.q),
        f.region ? eq(institutes.region, f.region) : undefined,
        f.province ? eq(institutes.province, f.province) : undefined,
        f.adhesionState ? eq(institutes.adhesionState, f.adhesionState) : undefined,
      ),
    };
  }
  if (t.target === 'plesso') {
    return {
      table: sql`${schoolSites}`,
      id: sql`${schoolSites.id}`,
      where: and(
        t.targetIds ? inArray(schoolSites.id, t.targetIds) : undefined,
        searchCondition(schoolSites.searchText, f.q),
        f.region ? eq(schoolSites.region, f.region) : undefined,
        f.province ? eq(schoolSites.province, f.province) : undefined,
        f.participating === undefined ? undefined : eq(schoolSites.participating, f.participating),
      ),
    };
  }
  // Teachers and educators: users with a teacher profile, placed by their plesso. Only approved
  // registrations unless staff choose another review state; a rejected registration is never reached
  // (issue 32: rejection removes the teacher from the plesso's lists).
  return {
    table: sql`${teacherProfiles} left join ${schoolSites} on ${schoolSites.id} = ${teacherProfiles.schoolSiteId} join ${users} on ${users.id} = ${teacherProfiles.userId}`,
    id: sql`${teacherProfiles.userId}`,
    where: and(
      inArray(teacherProfiles.kind, ['insegnante', 'educatore']),
      t.targetIds ? inArray(teacherProfiles.userId, t.targetIds) : undefined,
      searchCondition(users.searchText, f.q),
      f.region ? eq(schoolSites.region, f.region) : undefined,
      f.province ? eq(schoolSites.province, f.province) : undefined,
      ne(teacherProfiles.reviewState, 'respinta'),
      eq(teacherProfiles.reviewState, f.reviewState ?? 'approvata'),
    ),
  };
}

/** How many of these users are teachers or educators, whatever their review state (to tell unknown ids from unapproved ones). */
export async function countTeacherUsers(db: DbOrTx, userIds: number[]): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teacherProfiles)
    .where(
      and(
        inArray(teacherProfiles.userId, userIds),
        inArray(teacherProfiles.kind, ['insegnante', 'educatore']),
      ),
    );
  return Number(row?.n ?? 0);
}

const TARGET_COLUMN = {
  istituto: 'institute_id',
  plesso: 'school_site_id',
  insegnante: 'teacher_user_id',
} as const;

type Rows = { rows: Record<string, unknown>[] };

/** How many targets the request names and how many of them already have an action from the model. */
export async function countBulk(
  db: DbOrTx,
  modelId: number,
  t: BulkTargets,
): Promise<{ matched: number; existing: number }> {
  const { table, id, where } = targetSelect(t);
  const key = sql`${`${t.target}:`}::text || (${id})::text`;
  const result = (await db.execute(sql`
    select count(*)::int as matched,
      count(*) filter (where exists (select 1 from ${actions} where ${actions.modelId} = ${modelId} and ${actions.targetKey} = ${key}))::int as existing
    from ${table} ${where ? sql`where ${where}` : sql``}`)) as unknown as Rows;
  const row = result.rows[0] ?? {};
  return { matched: rowValue.int(row.matched ?? 0), existing: rowValue.int(row.existing ?? 0) };
}

/**
 * One `INSERT … SELECT … ON CONFLICT DO NOTHING` from the target filter: thousands of rows in one
 * statement; a target that already has an action from the model keeps it. Returns how many were created.
 */
export async function insertBulk(
  db: DbOrTx,
  modelId: number,
  t: BulkTargets,
  values: { dueOn: string; userId: number; now: Date },
): Promise<number> {
  const { table, id, where } = targetSelect(t);
  const key = sql`${`${t.target}:`}::text || (${id})::text`;
  const now = values.now.toISOString();
  const result = (await db.execute(sql`
    with created as (
      insert into ${actions} (model_id, target, target_key, ${sql.raw(TARGET_COLUMN[t.target])}, due_on, state, assigned_by_user_id, created_at, updated_at)
      select ${modelId}, ${t.target}, ${key}, ${id}, ${values.dueOn}::date, 'da_fare', ${values.userId}, ${now}::timestamptz, ${now}::timestamptz
      from ${table} ${where ? sql`where ${where}` : sql``}
      on conflict (model_id, target_key) do nothing
      returning 1
    )
    select count(*)::int as created from created`)) as unknown as Rows;
  return rowValue.int(result.rows[0]?.created ?? 0);
}

/** Lock the model's actions table rows against a concurrent bulk of the same model (serialises bulks per model). */
export async function lockModelForBulk(db: DbOrTx, modelId: number): Promise<void> {
  await db
    .select({ id: actionModels.id })
    .from(actionModels)
    .where(eq(actionModels.id, modelId))
    .for('update');
}
