import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type ActionDetail,
  type ActionFilters,
  type ActionListQuery,
  type ActionState,
  type ActionSummary,
  type ActionTarget,
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
  likeLiteral,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

/** Actions whose state still needs the target's work: they can be overdue. */
const OPEN_STATES: readonly ActionState[] = ['da_fare', 'in_corso'];

// --- Models: action-models.repository.ts; bulk assignment: action-bulk.repository.ts (re-exported) ---
export * from './action-models.repository.ts';
export * from './action-bulk.repository.ts';

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
