import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type ActionDetail,
  type ActionFilters,
  type ActionListQuery,
  type ActionModel,
  type ActionModelCreate,
  type ActionModelListQuery,
  type ActionModelUpdate,
  type ActionState,
  type ActionSummary,
  type ActionTarget,
  type ActionTargetFilter,
} from '@portale/shared/actions';
import { searchWords } from '@portale/shared/lists';
import {
  actionModels,
  actions,
  institutes,
  schoolSites,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import type { StoredFile } from '../../lib/file-store.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  searchCondition,
  type Page,
} from '../../lib/list.ts';

/** Actions whose state still needs the target's work: they can be overdue. */
const OPEN_STATES: readonly ActionState[] = ['da_fare', 'in_corso'];

// --- Models ---

const modelActionCount = sql<number>`(select count(*)::int from ${actions} where ${actions.modelId} = ${actionModels.id})`;

const modelFields = aliased({
  id: actionModels.id,
  title: actionModels.title,
  description: actionModels.description,
  category: actionModels.category,
  target: actionModels.target,
  defaultDurationDays: actionModels.defaultDurationDays,
  evidence: actionModels.evidence,
  active: actionModels.active,
  actionCount: modelActionCount,
  createdAt: actionModels.createdAt,
  updatedAt: actionModels.updatedAt,
});

type ModelRow = Record<string, unknown>;

export function toModel(r: ModelRow): ActionModel {
  return {
    id: rowValue.int(r.id),
    title: rowValue.text(r.title),
    description: rowValue.text(r.description),
    category: rowValue.text(r.category),
    target: r.target as ActionTarget,
    defaultDurationDays: rowValue.int(r.defaultDurationDays),
    evidence: r.evidence as ActionModel['evidence'],
    active: rowValue.bool(r.active),
    actionCount: rowValue.int(r.actionCount),
    createdAt: rowValue.iso(r.createdAt)!,
    updatedAt: rowValue.iso(r.updatedAt)!,
  };
}

type ModelFilters = Omit<ActionModelListQuery, 'page' | 'pageSize'>;

function modelWhere(query: ModelFilters): SQL | undefined {
  const words = searchWords(query.q);
  return and(
    ...words.map(
      (w) =>
        sql`lower(${actionModels.title} || ' ' || ${actionModels.category}) like ${`%${likeLiteral(w)}%`}`,
    ),
    query.target ? eq(actionModels.target, query.target) : undefined,
    query.active === undefined ? undefined : eq(actionModels.active, query.active),
  );
}

const MODEL_SORTS = {
  title: actionModels.title,
  category: actionModels.category,
  target: actionModels.target,
  createdAt: actionModels.createdAt,
};

export function modelListQuery(db: DbOrTx, query: ModelFilters) {
  return db
    .select(modelFields)
    .from(actionModels)
    .where(modelWhere(query))
    .orderBy(...orderByOf(query.sort ?? { column: 'title', direction: 'asc' }, MODEL_SORTS, actionModels.id));
}

export async function countModels(db: DbOrTx, query: ModelFilters): Promise<number> {
  return rawCount(db, db.select({ n: countAll }).from(actionModels).where(modelWhere(query)));
}

export function listModels(db: DbOrTx, query: ActionModelListQuery): Promise<Page<ActionModel>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, modelListQuery(db, query).limit(limit).offset(offset))).map(toModel),
    () => countModels(db, query),
    query.page,
    query.pageSize,
  );
}

export async function findModel(db: DbOrTx, modelId: number, lock = false): Promise<ActionModel | undefined> {
  const q = db.select(modelFields).from(actionModels).where(eq(actionModels.id, modelId));
  const [row] = lock ? await q.for('update', { of: actionModels }) : await q;
  return row && toModel(row);
}

export async function modelExists(db: DbOrTx, modelId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: actionModels.id })
    .from(actionModels)
    .where(eq(actionModels.id, modelId));
  return row !== undefined;
}

export async function insertModel(
  db: DbOrTx,
  values: ActionModelCreate,
  userId: number | null,
  now: Date,
): Promise<number> {
  const [row] = await db
    .insert(actionModels)
    .values({ ...values, createdByUserId: userId, updatedByUserId: userId, createdAt: now, updatedAt: now })
    .returning({ id: actionModels.id });
  return row!.id;
}

export async function updateModel(
  db: DbOrTx,
  modelId: number,
  changes: ActionModelUpdate,
  userId: number | null,
  now: Date,
): Promise<void> {
  await db
    .update(actionModels)
    .set({ ...changes, updatedByUserId: userId, updatedAt: now })
    .where(eq(actionModels.id, modelId));
}

// --- Actions: the list ---

const ti = alias(institutes, 'target_institute');
const ts = alias(schoolSites, 'target_site');
const tu = alias(users, 'target_teacher');
const tp = alias(teacherProfiles, 'target_teacher_profile');
const tps = alias(schoolSites, 'target_teacher_site');

const targetName = sql`coalesce(${ti.name}, ${ts.name}, ${tu.lastName} || ' ' || ${tu.firstName})`;
const targetSearch = sql`coalesce(${ti.searchText}, ${ts.searchText}, ${tu.searchText})`;
const targetRegion = sql`coalesce(${ti.region}, ${ts.region}, ${tps.region})`;
const targetProvince = sql`coalesce(${ti.province}, ${ts.province}, ${tps.province})`;

function overdueExpr(today: string): SQL {
  return sql`(${actions.dueOn} < ${today}::date and ${actions.state} in ('da_fare', 'in_corso'))`;
}

function summaryFields(today: string) {
  return aliased({
    id: actions.id,
    modelId: actions.modelId,
    modelTitle: actionModels.title,
    category: actionModels.category,
    evidence: actionModels.evidence,
    target: actions.target,
    targetId: sql`coalesce(${actions.instituteId}, ${actions.schoolSiteId}, ${actions.teacherUserId})`,
    targetName,
    targetCode: sql`coalesce(${ti.ministryCode}, ${ts.ministryCode}, ${tu.email})`,
    region: targetRegion,
    province: targetProvince,
    dueOn: sql`to_char(${actions.dueOn}, 'YYYY-MM-DD')`,
    state: actions.state,
    overdue: overdueExpr(today),
    completedAt: actions.completedAt,
    verifiedAt: actions.verifiedAt,
    createdAt: actions.createdAt,
  });
}

export function toActionSummary(row: Record<string, unknown>): ActionSummary {
  return {
    id: rowValue.int(row.id),
    modelId: rowValue.int(row.modelId),
    modelTitle: rowValue.text(row.modelTitle),
    category: rowValue.text(row.category),
    evidence: row.evidence as ActionSummary['evidence'],
    target: row.target as ActionTarget,
    targetId: rowValue.int(row.targetId),
    targetName: rowValue.text(row.targetName),
    targetCode: rowValue.text(row.targetCode),
    region: rowValue.textOrNull(row.region),
    province: rowValue.textOrNull(row.province),
    dueOn: rowValue.text(row.dueOn),
    state: row.state as ActionState,
    overdue: rowValue.bool(row.overdue),
    completedAt: rowValue.iso(row.completedAt),
    verifiedAt: rowValue.iso(row.verifiedAt),
    createdAt: rowValue.iso(row.createdAt)!,
  };
}

function fromActions(db: DbOrTx, fields: Record<string, SQL.Aliased | SQL | typeof actions.id>) {
  return db
    .select(fields as Record<string, SQL.Aliased>)
    .from(actions)
    .innerJoin(actionModels, eq(actionModels.id, actions.modelId))
    .leftJoin(ti, eq(ti.id, actions.instituteId))
    .leftJoin(ts, eq(ts.id, actions.schoolSiteId))
    .leftJoin(tu, eq(tu.id, actions.teacherUserId))
    .leftJoin(tp, eq(tp.userId, actions.teacherUserId))
    .leftJoin(tps, eq(tps.id, tp.schoolSiteId));
}

/**
 * The actions a user owns (product §3): an institute's actions and its plessi's actions belong to its
 * principal and first contact; a teacher's actions to the teacher.
 */
function ownedBy(userId: number): SQL {
  const myInstitutes = sql`select ${institutes.id} from ${institutes} where ${institutes.principalUserId} = ${userId} or ${institutes.firstContactUserId} = ${userId}`;
  return sql`(${actions.instituteId} in (${myInstitutes}) or ${actions.schoolSiteId} in (select ${schoolSites.id} from ${schoolSites} where ${schoolSites.instituteId} in (${myInstitutes})) or ${actions.teacherUserId} = ${userId})`;
}

export type ActionScope = { ownerUserId?: number };
type Filters = Omit<ActionFilters, 'sort'> & { sort?: ActionFilters['sort'] };

function actionWhere(filters: Filters, scope: ActionScope, today: string): SQL | undefined {
  const words = searchWords(filters.q);
  return and(
    scope.ownerUserId === undefined ? undefined : ownedBy(scope.ownerUserId),
    ...words.map((w) => sql`${targetSearch} like ${`%${likeLiteral(w)}%`}`),
    filters.modelId ? eq(actions.modelId, filters.modelId) : undefined,
    filters.state ? eq(actions.state, filters.state) : undefined,
    filters.target ? eq(actions.target, filters.target) : undefined,
    filters.region ? sql`${targetRegion} = ${filters.region}` : undefined,
    filters.province ? sql`${targetProvince} = ${filters.province}` : undefined,
    filters.overdue === undefined
      ? undefined
      : filters.overdue
        ? overdueExpr(today)
        : sql`not ${overdueExpr(today)}`,
  );
}

const ACTION_SORT_COLUMNS = {
  dueOn: actions.dueOn,
  state: actions.state,
  targetName,
  modelTitle: actionModels.title,
  createdAt: actions.createdAt,
};

export function actionListQuery(db: DbOrTx, filters: Filters, scope: ActionScope, today: string) {
  return fromActions(db, summaryFields(today))
    .where(actionWhere(filters, scope, today))
    .orderBy(
      ...orderByOf(filters.sort ?? { column: 'dueOn', direction: 'asc' }, ACTION_SORT_COLUMNS, actions.id),
    );
}

export async function countActions(
  db: DbOrTx,
  filters: Filters,
  scope: ActionScope,
  today: string,
): Promise<number> {
  return rawCount(
    db,
    fromActions(db, { n: sql`count(*)::int`.as('n') }).where(actionWhere(filters, scope, today)),
  );
}

export function listActions(
  db: DbOrTx,
  query: ActionListQuery,
  scope: ActionScope,
  today: string,
): Promise<Page<ActionSummary>> {
  return paginate(
    async (limit, offset) =>
      (await rawRows(db, actionListQuery(db, query, scope, today).limit(limit).offset(offset))).map(
        toActionSummary,
      ),
    () => countActions(db, query, scope, today),
    query.page,
    query.pageSize,
  );
}

// --- One action ---

const assigner = alias(users, 'action_assigner');
const completer = alias(users, 'action_completer');
const verifier = alias(users, 'action_verifier');

const person = (id: unknown, first: unknown, last: unknown) =>
  id === null || id === undefined
    ? null
    : { id: rowValue.int(id), firstName: rowValue.text(first), lastName: rowValue.text(last) };

function toDetail(row: Record<string, unknown>): ActionDetail {
  return {
    ...toActionSummary(row),
    description: rowValue.text(row.description),
    evidenceText: rowValue.textOrNull(row.evidenceText),
    evidenceFile:
      row.evidenceFileName === null || row.evidenceFileName === undefined
        ? null
        : {
            name: rowValue.text(row.evidenceFileName),
            contentType: rowValue.text(row.evidenceContentType),
            sizeBytes: rowValue.int(row.evidenceSizeBytes),
          },
    staffNote: rowValue.textOrNull(row.staffNote),
    assignedBy: person(row.assignerId, row.assignerFirst, row.assignerLast),
    completedBy: person(row.completerId, row.completerFirst, row.completerLast),
    verifiedBy: person(row.verifierId, row.verifierFirst, row.verifierLast),
    updatedAt: rowValue.iso(row.updatedAt)!,
  };
}

function detailQuery(db: DbOrTx, today: string) {
  return fromActions(db, {
    ...summaryFields(today),
    ...aliased({
      description: actionModels.description,
      evidenceText: actions.evidenceText,
      evidenceFileName: actions.evidenceFileName,
      evidenceContentType: actions.evidenceContentType,
      evidenceSizeBytes: actions.evidenceSizeBytes,
      staffNote: actions.staffNote,
      assignerId: assigner.id,
      assignerFirst: assigner.firstName,
      assignerLast: assigner.lastName,
      completerId: completer.id,
      completerFirst: completer.firstName,
      completerLast: completer.lastName,
      verifierId: verifier.id,
      verifierFirst: verifier.firstName,
      verifierLast: verifier.lastName,
      updatedAt: actions.updatedAt,
    }),
  })
    .leftJoin(assigner, eq(assigner.id, actions.assignedByUserId))
    .leftJoin(completer, eq(completer.id, actions.completedByUserId))
    .leftJoin(verifier, eq(verifier.id, actions.verifiedByUserId));
}

export async function findAction(
  db: DbOrTx,
  actionId: number,
  today: string,
): Promise<ActionDetail | undefined> {
  const [row] = await detailQuery(db, today).where(eq(actions.id, actionId));
  return row && toDetail(row);
}

/** A target's home: open actions (due first) and the last completed or verified ones. */
export async function myActions(db: DbOrTx, userId: number, today: string) {
  const [open, done] = await Promise.all([
    detailQuery(db, today)
      .where(and(ownedBy(userId), inArray(actions.state, [...OPEN_STATES])))
      .orderBy(actions.dueOn, actions.id)
      .limit(50),
    fromActions(db, summaryFields(today))
      .where(and(ownedBy(userId), inArray(actions.state, ['completata', 'verificata'])))
      .orderBy(sql`${actions.updatedAt} desc`, sql`${actions.id} desc`)
      .limit(10),
  ]);
  return { open: open.map(toDetail), done: done.map(toActionSummary) };
}

/** Owners of an action: see `ownedBy`. `undefined` when the action is unknown. */
export async function actionOwners(db: DbOrTx, actionId: number) {
  const [row] = await db
    .select({
      teacher: actions.teacherUserId,
      principal: sql<
        number | null
      >`coalesce(${ti.principalUserId}, (select ${institutes.principalUserId} from ${institutes} where ${institutes.id} = ${ts.instituteId}))`,
      firstContact: sql<
        number | null
      >`coalesce(${ti.firstContactUserId}, (select ${institutes.firstContactUserId} from ${institutes} where ${institutes.id} = ${ts.instituteId}))`,
    })
    .from(actions)
    .leftJoin(ti, eq(ti.id, actions.instituteId))
    .leftJoin(ts, eq(ts.id, actions.schoolSiteId))
    .where(eq(actions.id, actionId));
  if (!row) return undefined;
  const ids = [row.teacher, row.principal, row.firstContact]
    .filter((v) => v !== null && v !== undefined)
    .map(Number);
  return { ownerUserIds: ids };
}

/** The action's state and its model's evidence, locked for a change. */
export async function lockAction(db: DbOrTx, actionId: number) {
  const [row] = await db
    .select({
      state: actions.state,
      evidence: actionModels.evidence,
      evidenceText: actions.evidenceText,
      evidenceFileName: actions.evidenceFileName,
      evidenceFileKey: actions.evidenceFileKey,
      staffNote: actions.staffNote,
    })
    .from(actions)
    .innerJoin(actionModels, eq(actionModels.id, actions.modelId))
    .where(eq(actions.id, actionId))
    .for('update', { of: actions });
  return row;
}

export interface StateChange {
  from: ActionState;
  to: ActionState;
  userId: number;
  now: Date;
  evidenceText?: string | null;
  evidenceFile?: { name: string; contentType: string; file: StoredFile } | null;
  staffNote?: string | null;
}

/** Moves the action only if it is still in `from` (a concurrent move makes this a no-op: false). */
export async function changeState(db: DbOrTx, actionId: number, change: StateChange): Promise<boolean> {
  const set: Partial<typeof actions.$inferInsert> = { state: change.to, updatedAt: change.now };
  if (change.to === 'completata') {
    Object.assign(set, {
      completedAt: change.now,
      completedByUserId: change.userId,
      evidenceText: change.evidenceText ?? null,
      evidenceFileName: change.evidenceFile?.name ?? null,
      evidenceContentType: change.evidenceFile?.contentType ?? null,
      evidenceFile: null,
      evidenceFileKey: change.evidenceFile?.file.key ?? null,
      evidenceSizeBytes: change.evidenceFile?.file.sizeBytes ?? null,
    });
  }
  if (change.to === 'verificata')
    Object.assign(set, {
      verifiedAt: change.now,
      verifiedByUserId: change.userId,
      staffNote: change.staffNote ?? null,
    });
  if (change.from === 'completata' && change.to === 'in_corso')
    Object.assign(set, { staffNote: change.staffNote ?? null, completedAt: null });
  const rows = await db
    .update(actions)
    .set(set)
    .where(and(eq(actions.id, actionId), eq(actions.state, change.from)))
    .returning({ id: actions.id });
  return rows.length === 1;
}

/** Where an action's evidence file is (never its bytes): its key in the file store, or null for evidence written before decision 030. */
export async function findEvidenceFile(db: DbOrTx, actionId: number) {
  const [row] = await db
    .select({
      name: actions.evidenceFileName,
      contentType: actions.evidenceContentType,
      key: actions.evidenceFileKey,
      sizeBytes: actions.evidenceSizeBytes,
    })
    .from(actions)
    .where(eq(actions.id, actionId));
  return row?.name && row.sizeBytes !== null
    ? { name: row.name, contentType: row.contentType ?? 'application/octet-stream', key: row.key }
    : undefined;
}

/** The evidence bytes kept in the row before decision 030 (undefined when there are none). */
export async function findLegacyEvidence(db: DbOrTx, actionId: number): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ content: actions.evidenceFile })
    .from(actions)
    .where(eq(actions.id, actionId));
  return row?.content ? Buffer.from(row.content) : undefined;
}

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

// --- Seed helpers ---

export async function insertAction(
  db: DbOrTx,
  values: {
    modelId: number;
    target: ActionTarget;
    targetId: number;
    dueOn: string;
    state: ActionState;
    now: Date;
    assignedByUserId: number | null;
  } & Partial<
    Pick<
      typeof actions.$inferInsert,
      | 'evidenceText'
      | 'evidenceFileName'
      | 'evidenceContentType'
      | 'evidenceFile'
      | 'evidenceSizeBytes'
      | 'staffNote'
      | 'completedAt'
      | 'completedByUserId'
      | 'verifiedAt'
      | 'verifiedByUserId'
    >
  >,
): Promise<number | undefined> {
  const { targetId, ...rest } = values;
  const column =
    values.target === 'istituto'
      ? { instituteId: targetId }
      : values.target === 'plesso'
        ? { schoolSiteId: targetId }
        : { teacherUserId: targetId };
  const [row] = await db
    .insert(actions)
    .values({
      ...rest,
      ...column,
      targetKey: `${values.target}:${targetId}`,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .onConflictDoNothing()
    .returning({ id: actions.id });
  return row?.id;
}

export async function findModelByTitle(db: DbOrTx, title: string) {
  const [row] = await db
    .select({ id: actionModels.id })
    .from(actionModels)
    .where(eq(actionModels.title, title));
  return row?.id;
}
