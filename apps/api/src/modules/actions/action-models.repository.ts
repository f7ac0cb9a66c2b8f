import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  type ActionModel,
  type ActionModelCreate,
  type ActionModelListQuery,
  type ActionModelUpdate,
  type ActionTarget,
} from '@portale/shared/actions';
import { searchWords } from '@portale/shared/lists';
import { actionModels, actions } from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import {
  aliased,
  countAll,
  likeLiteral,
  orderByOf,
  paginate,
  rawCount,
  rawRows,
  rowValue,
  type Page,
} from '../../lib/list.ts';

/** Actions whose state still needs the target's work: they can be overdue. */

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
