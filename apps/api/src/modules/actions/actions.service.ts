import {
  ACTION_BULK_MAX,
  ACTION_MESSAGES,
  canTransitionAction,
  type ActionBulkBody,
  type ActionBulkPreviewBody,
  type ActionModelCreate,
  type ActionModelUpdate,
  type ActionState,
  type ActionTarget,
} from '@portale/shared/actions';
import { dateToRomeLocal } from '@portale/shared/bookings';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { auditWrite, changedFields, type Actor } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import * as repo from './actions.repository.ts';

/** Today in Rome, `YYYY-MM-DD`. */
export function romeToday(now: Date): string {
  return dateToRomeLocal(now).slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (code: string, message: string) => new HttpError(409, code, message);

/** The user of a signed-in actor (every write of this module is made by one). */
function userOf(actor: Actor): number {
  if (actor.userId === null) throw new Error('an action write needs a signed-in actor');
  return actor.userId;
}

// --- Models ---

/** Creates a model with its audit row; its id. */
export function createModel(db: Db, actor: Actor, body: ActionModelCreate): Promise<number> {
  return withTransaction(db, async (tx) => {
    const modelId = await repo.insertModel(tx, body, userOf(actor), actor.at);
    await auditWrite(tx, actor, {
      action: 'action-model.created',
      entity: 'action-model',
      entityId: modelId,
      after: body,
    });
    return modelId;
  });
}

/** Saves what changed in a model (nothing changed: nothing written); activation and deactivation are audited as such. */
export function updateModel(db: Db, actor: Actor, modelId: number, body: ActionModelUpdate): Promise<void> {
  return withTransaction(db, async (tx) => {
    const current = await repo.findModel(tx, modelId, true);
    if (!current) throw notFound(ACTION_MESSAGES.modelNotFound);
    const diff = changedFields(
      {
        title: current.title,
        description: current.description,
        category: current.category,
        defaultDurationDays: current.defaultDurationDays,
        evidence: current.evidence,
        active: current.active,
      },
      body,
    );
    if (Object.keys(diff.after).length === 0) return;
    await repo.updateModel(tx, modelId, diff.after, userOf(actor), actor.at);
    const action =
      diff.after.active === false
        ? 'action-model.deactivated'
        : diff.after.active === true
          ? 'action-model.activated'
          : 'action-model.updated';
    await auditWrite(tx, actor, { action, entity: 'action-model', entityId: modelId, ...diff });
  });
}

// --- Bulk assignment ---

/** Which filters apply to which target (product §3). */
const FILTERS_OF: Record<ActionTarget, readonly string[]> = {
  istituto: ['q', 'region', 'province', 'adhesionState'],
  plesso: ['q', 'region', 'province', 'participating'],
  insegnante: ['q', 'region', 'province', 'reviewState'],
};

/** The model (active, 422 otherwise) and the targets of a bulk request, checked against the model's target. */
async function bulkTargets(db: Db, body: ActionBulkPreviewBody) {
  const model = await repo.findModel(db, body.modelId);
  if (!model) throw fieldError('modelId', ACTION_MESSAGES.modelNotFound);
  if (!model.active) throw fieldError('modelId', ACTION_MESSAGES.modelInactive);
  if (body.filter) {
    const wrong = Object.entries(body.filter).find(
      ([key, value]) => value !== undefined && !FILTERS_OF[model.target].includes(key),
    );
    if (wrong) throw fieldError(`filter.${wrong[0]}`, ACTION_MESSAGES.filterNotForTarget);
    if (body.filter.reviewState === 'respinta')
      throw fieldError('filter.reviewState', ACTION_MESSAGES.rejectedTeachers);
  }
  const targets: repo.BulkTargets = body.targetIds
    ? { target: model.target, targetIds: [...new Set(body.targetIds)] }
    : { target: model.target, filter: body.filter! };
  return { model, targets };
}

/** Named targets that the count did not find: unknown ids, or (for teachers) registrations that are not approved. */
async function refuseMissingTargets(db: DbOrTx, targets: repo.BulkTargets, matched: number): Promise<void> {
  if (!targets.targetIds || matched === targets.targetIds.length) return;
  if (
    targets.target === 'insegnante' &&
    (await repo.countTeacherUsers(db, targets.targetIds)) === targets.targetIds.length
  ) {
    throw fieldError('targetIds', ACTION_MESSAGES.notApprovedTeachers);
  }
  throw fieldError('targetIds', ACTION_MESSAGES.unknownTargets);
}

/** What a bulk assignment would do (nothing written). */
export async function previewBulk(db: Db, body: ActionBulkPreviewBody, today: string) {
  const { model, targets } = await bulkTargets(db, body);
  const counts = await repo.countBulk(db, model.id, targets);
  await refuseMissingTargets(db, targets, counts.matched);
  if (counts.matched > ACTION_BULK_MAX) throw fieldError('filter', ACTION_MESSAGES.tooMany);
  return {
    ...counts,
    toCreate: counts.matched - counts.existing,
    dueOn: addDays(today, model.defaultDurationDays),
  };
}

/** Assigns a model to its targets, if they are still the count the preview showed (409 otherwise), with one audit row. */
export async function assignBulk(db: Db, actor: Actor, body: ActionBulkBody, today: string) {
  const { model, targets } = await bulkTargets(db, body);
  const dueOn = body.dueOn ?? addDays(today, model.defaultDurationDays);
  if (Number.isNaN(Date.parse(`${dueOn}T00:00:00Z`)) || addDays(dueOn, 0) !== dueOn || dueOn < today)
    throw fieldError('dueOn', ACTION_MESSAGES.dueOn);
  const userId = userOf(actor);
  return withTransaction(db, async (tx) => {
    // One bulk of a model at a time: the count and the insert see the same rows.
    await repo.lockModelForBulk(tx, model.id);
    const counts = await repo.countBulk(tx, model.id, targets);
    await refuseMissingTargets(tx, targets, counts.matched);
    if (counts.matched > ACTION_BULK_MAX) throw fieldError('filter', ACTION_MESSAGES.tooMany);
    if (counts.matched !== body.expectedCount)
      throw conflict('action_count_changed', ACTION_MESSAGES.countChanged);
    const created = await repo.insertBulk(tx, model.id, targets, { dueOn, userId, now: actor.at });
    await auditWrite(tx, actor, {
      action: 'action.bulk-assigned',
      entity: 'action-model',
      entityId: model.id,
      after: {
        target: model.target,
        ...(targets.targetIds ? { targetIds: targets.targetIds } : { filter: targets.filter }),
        dueOn,
        matched: counts.matched,
        created,
        existing: counts.matched - created,
      },
    });
    return { matched: counts.matched, created, existing: counts.matched - created, dueOn };
  });
}

// --- One action ---

export type LockedAction = NonNullable<Awaited<ReturnType<typeof repo.lockAction>>>;
export type StateChangeExtra = Omit<repo.StateChange, 'from' | 'to' | 'userId' | 'now'>;

/**
 * Moves an action along the shared transition table, in one transaction with its audit row; 409
 * otherwise. `extra` checks the locked action and gives the change's fields (evidence, note). The
 * answer is the key of the evidence file the move replaced (completing again replaces it), for the
 * caller to remove once this is committed.
 */
export function moveAction(
  db: Db,
  actor: Actor,
  actionId: number,
  to: ActionState,
  allowedFrom: readonly ActionState[],
  extra: (locked: LockedAction) => StateChangeExtra,
): Promise<string | null> {
  return withTransaction(db, async (tx) => {
    const locked = await repo.lockAction(tx, actionId);
    if (!locked) throw notFound(ACTION_MESSAGES.notFound);
    if (!allowedFrom.includes(locked.state) || !canTransitionAction(locked.state, to))
      throw conflict('action_transition', ACTION_MESSAGES.illegalTransition);
    const change = extra(locked);
    const moved = await repo.changeState(tx, actionId, {
      ...change,
      from: locked.state,
      to,
      userId: userOf(actor),
      now: actor.at,
    });
    if (!moved) throw conflict('action_transition', ACTION_MESSAGES.illegalTransition);
    const { evidenceFile, ...rest } = change;
    await auditWrite(tx, actor, {
      action: `action.${to}`,
      entity: 'action',
      entityId: actionId,
      before: { state: locked.state },
      after: {
        state: to,
        ...rest,
        ...(evidenceFile
          ? {
              evidenceFile: {
                name: evidenceFile.name,
                contentType: evidenceFile.contentType,
                sizeBytes: evidenceFile.file.sizeBytes,
                sha256: evidenceFile.file.sha256,
              },
            }
          : {}),
      },
    });
    // Completing again replaces the evidence: the previous file goes once this is committed.
    return to === 'completata' ? locked.evidenceFileKey : null;
  });
}
