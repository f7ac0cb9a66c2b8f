import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ACTION_BULK_MAX,
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_LABELS,
  ACTION_MESSAGES,
  ACTION_STATE_LABELS,
  ACTION_TARGET_LABELS,
  assignActionBulk,
  canTransitionAction,
  createActionModel,
  downloadActionEvidence,
  exportActionModels,
  exportActions,
  getAction,
  getActionModel,
  getMyActions,
  listActionModels,
  listActions,
  previewActionBulk,
  reviewAction,
  transitionAction,
  updateActionModel,
  uploadActionEvidence,
  type ActionBulkPreviewBody,
  type ActionModel,
  type ActionState,
  type ActionSummary,
  type ActionTarget,
} from '@portale/shared/actions';
import { can } from '@portale/shared/auth';
import { dateToRomeLocal } from '@portale/shared/bookings';
import { withTransaction, type DbOrTx } from '../../db/transaction.ts';
import { auditWrite, changedFields } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import {
  discardUnclaimedUploads,
  openStored,
  removeStored,
  Upload,
  uploadParser,
} from '../../lib/uploads.ts';
import { forEachBatch } from '../../lib/list.ts';
import { authOf, requireGrant } from '../../plugins/authorization.ts';
import * as repo from './actions.repository.ts';

const EXPORT_COLUMNS: ExportColumn<ActionSummary>[] = [
  { header: 'Modello', value: (r) => r.modelTitle },
  { header: 'Categoria', value: (r) => r.category },
  { header: 'Destinatari', value: (r) => ACTION_TARGET_LABELS[r.target] },
  { header: 'Destinatario', value: (r) => r.targetName },
  { header: 'Codice', value: (r) => r.targetCode },
  { header: 'Regione', value: (r) => r.region ?? '' },
  { header: 'Provincia', value: (r) => r.province ?? '' },
  { header: 'Scadenza', value: (r) => r.dueOn, type: 'date' },
  { header: 'Stato', value: (r) => ACTION_STATE_LABELS[r.state] },
  { header: 'Scaduta', value: (r) => r.overdue },
  { header: 'Prova', value: (r) => ACTION_EVIDENCE_LABELS[r.evidence] },
  { header: 'Completata il', value: (r) => (r.completedAt ? new Date(r.completedAt) : null) },
  { header: 'Verificata il', value: (r) => (r.verifiedAt ? new Date(r.verifiedAt) : null) },
];

const MODEL_EXPORT_COLUMNS: ExportColumn<ActionModel>[] = [
  { header: 'Titolo', value: (r) => r.title },
  { header: 'Categoria', value: (r) => r.category },
  { header: 'Descrizione', value: (r) => r.description },
  { header: 'Destinatari', value: (r) => ACTION_TARGET_LABELS[r.target] },
  { header: 'Durata (giorni)', value: (r) => r.defaultDurationDays },
  { header: 'Prova richiesta', value: (r) => ACTION_EVIDENCE_LABELS[r.evidence] },
  { header: 'Attivo', value: (r) => r.active },
  { header: 'Azioni', value: (r) => r.actionCount },
  { header: 'Creato il', value: (r) => new Date(r.createdAt) },
];

/** Raw evidence types the upload route reads (the file is the body, no multipart); the content is checked by its magic bytes. */
/** Content types an evidence file may arrive with, as its contract documents them. */
const UPLOAD_TYPES = [...uploadActionEvidence.media!.request!];

const MAGIC: { type: string; ext: string; bytes: number[] }[] = [
  { type: 'application/pdf', ext: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'image/png', ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
];

/** The file's real type from its first bytes, whatever its name or declared type says. */
export function sniffEvidence(content: Buffer) {
  return MAGIC.find((m) => content.length >= m.bytes.length && m.bytes.every((b, i) => content[i] === b));
}

/** A safe stored name with the extension of the real type. */
function evidenceName(given: string | undefined, ext: string, actionId: number): string {
  const base = (given ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
  return `${base || `prova-azione-${actionId}`}.${ext}`;
}

/** Today in Rome, `YYYY-MM-DD`. */
export function romeToday(now: Date): string {
  return dateToRomeLocal(now).slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const notFound = (message: string) => new HttpError(404, 'not_found', message);
const conflict = (code: string, message: string) => new HttpError(409, code, message);

function modelOf(request: FastifyRequest) {
  const { modelId } = request.params as { modelId: number };
  return repo
    .modelExists(request.server.db, modelId)
    .then((yes) => (yes ? { ownerUserIds: [] } : Promise.reject(notFound(ACTION_MESSAGES.modelNotFound))));
}

function actionOf(request: FastifyRequest) {
  const { actionId } = request.params as { actionId: number };
  return repo
    .actionOwners(request.server.db, actionId)
    .then((owners) => owners ?? Promise.reject(notFound(ACTION_MESSAGES.notFound)));
}

/** The caller's own collection: owned by the caller (a target sees only their actions; staff all). */
function mine(request: FastifyRequest) {
  return Promise.resolve({ ownerUserIds: [authOf(request).user.id] });
}

function scopeOf(request: FastifyRequest): repo.ActionScope {
  const user = authOf(request).user;
  return can(user, 'read:action') ? {} : { ownerUserId: user.id };
}

/** Which filters apply to which target (product §3). */
const FILTERS_OF: Record<ActionTarget, readonly string[]> = {
  istituto: ['q', 'region', 'province', 'adhesionState'],
  plesso: ['q', 'region', 'province', 'participating'],
  insegnante: ['q', 'region', 'province', 'reviewState'],
};

/** Actions assigned from models to institutes, plessi and teachers (issue 10, product §3/§5). */
export async function actionRoutes(app: FastifyInstance) {
  const today = () => romeToday(app.clock.now());

  // The evidence file is the body (no multipart): only on this plugin's routes, with its own size limit.
  // It is streamed to the file store (decision 030), never held in memory or written to the database.
  app.addContentTypeParser(
    UPLOAD_TYPES,
    { bodyLimit: ACTION_EVIDENCE_FILE_MAX_BYTES },
    uploadParser(
      ACTION_EVIDENCE_FILE_MAX_BYTES,
      () => new HttpError(413, 'payload_too_large', ACTION_MESSAGES.evidenceTooLarge),
    ),
  );
  discardUnclaimedUploads(app);
  // Who may upload is checked before the body is read (a guest's 10 MB are never read).
  const uploadGuard = requireGrant('update:action');
  app.addHook('preParsing', async (request) => {
    if (request.method === 'POST' && request.routeOptions.url === uploadActionEvidence.path)
      uploadGuard(request);
  });

  // --- Models ---

  registerEndpoint(app, listActionModels, {}, (request) => repo.listModels(app.db, request.query));

  registerEndpoint(app, exportActionModels, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    return sendExport(reply, {
      format,
      name: 'modelli-di-azione',
      sheetName: 'Modelli di azione',
      columns: MODEL_EXPORT_COLUMNS,
      total: await repo.countModels(app.db, filters),
      today: app.clock.now(),
      produce: (write) => forEachBatch(app.db, repo.modelListQuery(app.db, filters), repo.toModel, write),
    });
  });

  registerEndpoint(app, createActionModel, {}, async (request, reply) => {
    const userId = authOf(request).user.id;
    const id = await withTransaction(app.db, async (tx) => {
      const modelId = await repo.insertModel(tx, request.body, userId, app.clock.now());
      await auditWrite(tx, request, {
        action: 'action-model.created',
        entity: 'action-model',
        entityId: modelId,
        after: request.body,
      });
      return modelId;
    });
    reply.header('location', `/api/action-models/${id}`);
    return (await repo.findModel(app.db, id))!;
  });

  registerEndpoint(app, getActionModel, { resource: modelOf }, async (request) => {
    return (
      (await repo.findModel(app.db, request.params.modelId)) ??
      Promise.reject(notFound(ACTION_MESSAGES.modelNotFound))
    );
  });

  registerEndpoint(app, updateActionModel, { resource: modelOf }, async (request) => {
    const { modelId } = request.params;
    await withTransaction(app.db, async (tx) => {
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
        request.body,
      );
      if (Object.keys(diff.after).length === 0) return;
      await repo.updateModel(tx, modelId, diff.after, authOf(request).user.id, app.clock.now());
      const action =
        diff.after.active === false
          ? 'action-model.deactivated'
          : diff.after.active === true
            ? 'action-model.activated'
            : 'action-model.updated';
      await auditWrite(tx, request, { action, entity: 'action-model', entityId: modelId, ...diff });
    });
    return (await repo.findModel(app.db, modelId))!;
  });

  // --- Lists ---

  registerEndpoint(app, listActions, { resource: mine }, (request) =>
    repo.listActions(app.db, request.query, scopeOf(request), today()),
  );

  registerEndpoint(app, exportActions, {}, async (request, reply) => {
    const { format, ...filters } = request.query;
    const day = today();
    return sendExport(reply, {
      format,
      name: 'azioni',
      sheetName: 'Azioni',
      columns: EXPORT_COLUMNS,
      total: await repo.countActions(app.db, filters, {}, day),
      today: app.clock.now(),
      produce: (write) =>
        forEachBatch(app.db, repo.actionListQuery(app.db, filters, {}, day), repo.toActionSummary, write),
    });
  });

  registerEndpoint(app, getMyActions, { resource: mine }, (request) =>
    repo.myActions(app.db, authOf(request).user.id, today()),
  );

  // --- Bulk assignment ---

  /** The model (active, 422 otherwise) and the targets of a bulk request, checked against the model's target. */
  async function bulkTargets(body: ActionBulkPreviewBody) {
    const model = await repo.findModel(app.db, body.modelId);
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

  registerEndpoint(app, previewActionBulk, { anyOnly: true }, async (request) => {
    const { model, targets } = await bulkTargets(request.body);
    const counts = await repo.countBulk(app.db, model.id, targets);
    await refuseMissingTargets(app.db, targets, counts.matched);
    if (counts.matched > ACTION_BULK_MAX) throw fieldError('filter', ACTION_MESSAGES.tooMany);
    return {
      ...counts,
      toCreate: counts.matched - counts.existing,
      dueOn: addDays(today(), model.defaultDurationDays),
    };
  });

  registerEndpoint(app, assignActionBulk, { anyOnly: true }, async (request) => {
    const { model, targets } = await bulkTargets(request.body);
    const day = today();
    const dueOn = request.body.dueOn ?? addDays(day, model.defaultDurationDays);
    if (Number.isNaN(Date.parse(`${dueOn}T00:00:00Z`)) || addDays(dueOn, 0) !== dueOn || dueOn < day)
      throw fieldError('dueOn', ACTION_MESSAGES.dueOn);
    const userId = authOf(request).user.id;
    return withTransaction(app.db, async (tx) => {
      // One bulk of a model at a time: the count and the insert see the same rows.
      await repo.lockModelForBulk(tx, model.id);
      const counts = await repo.countBulk(tx, model.id, targets);
      await refuseMissingTargets(tx, targets, counts.matched);
      if (counts.matched > ACTION_BULK_MAX) throw fieldError('filter', ACTION_MESSAGES.tooMany);
      if (counts.matched !== request.body.expectedCount)
        throw conflict('action_count_changed', ACTION_MESSAGES.countChanged);
      const created = await repo.insertBulk(tx, model.id, targets, { dueOn, userId, now: app.clock.now() });
      await auditWrite(tx, request, {
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
  });

  // --- One action ---

  registerEndpoint(app, getAction, { resource: actionOf }, async (request) => {
    return (
      (await repo.findAction(app.db, request.params.actionId, today())) ??
      Promise.reject(notFound(ACTION_MESSAGES.notFound))
    );
  });

  /** Moves an action along the shared transition table, in one transaction with its audit row; 409 otherwise. */
  async function move(
    request: FastifyRequest,
    actionId: number,
    to: ActionState,
    allowedFrom: readonly ActionState[],
    extra: (
      locked: NonNullable<Awaited<ReturnType<typeof repo.lockAction>>>,
    ) => Omit<repo.StateChange, 'from' | 'to' | 'userId' | 'now'>,
  ) {
    const replacedKey = await withTransaction(app.db, async (tx) => {
      const locked = await repo.lockAction(tx, actionId);
      if (!locked) throw notFound(ACTION_MESSAGES.notFound);
      if (!allowedFrom.includes(locked.state) || !canTransitionAction(locked.state, to))
        throw conflict('action_transition', ACTION_MESSAGES.illegalTransition);
      const change = extra(locked);
      const moved = await repo.changeState(tx, actionId, {
        ...change,
        from: locked.state,
        to,
        userId: authOf(request).user.id,
        now: app.clock.now(),
      });
      if (!moved) throw conflict('action_transition', ACTION_MESSAGES.illegalTransition);
      const { evidenceFile, ...rest } = change;
      await auditWrite(tx, request, {
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
    await removeStored(app, request, [replacedKey]);
    return (await repo.findAction(app.db, actionId, today()))!;
  }

  registerEndpoint(app, transitionAction, { resource: actionOf }, async (request) => {
    const { to, evidenceText } = request.body;
    if (to === 'in_corso') return move(request, request.params.actionId, 'in_corso', ['da_fare'], () => ({}));
    return move(request, request.params.actionId, 'completata', ['in_corso'], (locked) => {
      if (locked.evidence === 'file') throw fieldError('evidenceFile', ACTION_MESSAGES.evidenceFileRequired);
      if (locked.evidence === 'testo' && !evidenceText)
        throw fieldError('evidenceText', ACTION_MESSAGES.evidenceText);
      return { evidenceText: locked.evidence === 'testo' ? evidenceText! : (evidenceText ?? null) };
    });
  });

  registerEndpoint(app, uploadActionEvidence, { resource: actionOf }, async (request) => {
    const body = request.body as unknown;
    if (!(body instanceof Upload))
      throw new HttpError(415, 'unsupported_media_type', ACTION_MESSAGES.evidenceType);
    if (body.file.sizeBytes === 0) throw new HttpError(422, 'empty_file', ACTION_MESSAGES.evidenceEmpty);
    const kind = sniffEvidence(body.file.head);
    if (!kind) throw new HttpError(422, 'unsupported_format', ACTION_MESSAGES.evidenceType);
    const { actionId } = request.params;
    const action = await move(request, actionId, 'completata', ['in_corso'], (locked) => {
      if (locked.evidence !== 'file')
        throw fieldError('evidenceFile', ACTION_MESSAGES.evidenceFileNotRequired);
      return {
        evidenceFile: {
          name: evidenceName(request.query.filename, kind.ext, actionId),
          contentType: kind.type,
          file: body.file,
        },
      };
    });
    body.claim();
    return action;
  });

  registerEndpoint(app, downloadActionEvidence, { resource: actionOf }, async (request, reply) => {
    const file = await repo.findEvidenceFile(app.db, request.params.actionId);
    if (!file) throw notFound(ACTION_MESSAGES.noEvidence);
    // Streamed from the file store; evidence written before decision 030 still has its bytes in the row.
    const body = file.key
      ? await openStored(app, file.key, () => notFound(ACTION_MESSAGES.noEvidence))
      : await repo.findLegacyEvidence(app.db, request.params.actionId);
    if (!body) throw notFound(ACTION_MESSAGES.noEvidence);
    return reply
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"`)
      .type(file.contentType)
      .send(body);
  });

  registerEndpoint(app, reviewAction, { resource: actionOf }, async (request) => {
    const { to, note } = request.body;
    return move(request, request.params.actionId, to, ['completata'], () => ({ staffNote: note ?? null }));
  });
}
