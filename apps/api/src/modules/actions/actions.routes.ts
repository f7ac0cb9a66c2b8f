import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ACTION_EVIDENCE_FILE_MAX_BYTES,
  ACTION_EVIDENCE_LABELS,
  ACTION_MESSAGES,
  ACTION_STATE_LABELS,
  ACTION_TARGET_LABELS,
  assignActionBulk,
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
  type ActionModel,
  type ActionState,
  type ActionSummary,
} from '@portale/shared/actions';
import { can } from '@portale/shared/auth';
import { actorOf } from '../../lib/audit.ts';
import { sendExport, type ExportColumn } from '../../lib/export.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { forEachBatch } from '../../lib/list.ts';
import { openStored, removeStored } from '../../lib/uploads.ts';
import { authOf } from '../../plugins/authorization.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { FILE_SIGNATURES, registerUploads, sniffFile, storedUploadOf } from '../../plugins/uploads.ts';
import * as repo from './actions.repository.ts';
import * as service from './actions.service.ts';
import { notFound, romeToday } from './actions.service.ts';

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

const EVIDENCE_TYPES = [FILE_SIGNATURES.pdf, FILE_SIGNATURES.png, FILE_SIGNATURES.jpeg];

/** The file's real type from its first bytes, whatever its name or declared type says. */
export function sniffEvidence(content: Buffer) {
  return sniffFile(content, EVIDENCE_TYPES);
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

function modelOf(request: RequestWithParams<{ modelId: number }>) {
  const { modelId } = request.params;
  return repo
    .modelExists(request.server.db, modelId)
    .then((yes) => (yes ? { ownerUserIds: [] } : Promise.reject(notFound(ACTION_MESSAGES.modelNotFound))));
}

function actionOf(request: RequestWithParams<{ actionId: number }>) {
  const { actionId } = request.params;
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

/** Actions assigned from models to institutes, plessi and teachers (issue 10, product §3/§5). */
export async function actionRoutes(app: FastifyInstance) {
  const today = () => romeToday(app.clock.now());

  // The evidence file is the body, streamed to the file store (decision 030), never held in memory or
  // written to the database; who may upload is checked before it is read (a guest's 10 MB are never read).
  registerUploads(app, {
    endpoints: [uploadActionEvidence],
    maxBytes: ACTION_EVIDENCE_FILE_MAX_BYTES,
    tooLargeMessage: ACTION_MESSAGES.evidenceTooLarge,
    keep: 'store',
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
    const id = await service.createModel(app.db, actorOf(request), request.body);
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
    await service.updateModel(app.db, actorOf(request), modelId, request.body);
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

  registerEndpoint(app, previewActionBulk, { anyOnly: true }, (request) =>
    service.previewBulk(app.db, request.body, today()),
  );

  registerEndpoint(app, assignActionBulk, { anyOnly: true }, (request) =>
    service.assignBulk(app.db, actorOf(request), request.body, today()),
  );

  // --- One action ---

  registerEndpoint(app, getAction, { resource: actionOf }, async (request) => {
    return (
      (await repo.findAction(app.db, request.params.actionId, today())) ??
      Promise.reject(notFound(ACTION_MESSAGES.notFound))
    );
  });

  /** Moves an action (see `moveAction`), removes the evidence it replaced, answers the action as it now is. */
  async function move(
    request: FastifyRequest,
    actionId: number,
    to: ActionState,
    allowedFrom: readonly ActionState[],
    extra: (locked: service.LockedAction) => service.StateChangeExtra,
  ) {
    const replacedKey = await service.moveAction(app.db, actorOf(request), actionId, to, allowedFrom, extra);
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
    const upload = storedUploadOf(request.body, {
      missing: () => new HttpError(415, 'unsupported_media_type', ACTION_MESSAGES.evidenceType),
      empty: () => new HttpError(422, 'empty_file', ACTION_MESSAGES.evidenceEmpty),
    });
    const kind = sniffEvidence(upload.file.head);
    if (!kind) throw new HttpError(422, 'unsupported_format', ACTION_MESSAGES.evidenceType);
    const { actionId } = request.params;
    const action = await move(request, actionId, 'completata', ['in_corso'], (locked) => {
      if (locked.evidence !== 'file')
        throw fieldError('evidenceFile', ACTION_MESSAGES.evidenceFileNotRequired);
      return {
        evidenceFile: {
          name: evidenceName(request.query.filename, kind.ext, actionId),
          contentType: kind.type,
          file: upload.file,
        },
      };
    });
    upload.claim();
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
