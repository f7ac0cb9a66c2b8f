import { z } from 'zod';
import { defineEndpoint, defineUploadEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  ActionBulkPreviewResultSchema,
  ActionBulkPreviewSchema,
  ActionBulkResultSchema,
  ActionBulkSchema,
  ActionDetailSchema,
  ActionEvidenceUploadQuerySchema,
  ActionFiltersSchema,
  ActionListQuerySchema,
  ActionListResponseSchema,
  ActionModelCreateSchema,
  ActionModelFiltersSchema,
  ActionModelListQuerySchema,
  ActionModelListResponseSchema,
  ActionModelSchema,
  ActionModelUpdateSchema,
  ActionReviewSchema,
  ActionTransitionSchema,
  MyActionsResponseSchema,
} from './actions.schemas.ts';

const ModelParams = z.object({ modelId: IdParamSchema });
const ActionParams = z.object({ actionId: IdParamSchema });

// --- Models (super-admin manages, staff read) ---

export const listActionModels = defineEndpoint({
  method: 'GET',
  path: '/api/action-models',
  permission: 'read:action-model',
  tag: 'actions',
  summary: 'Modelli di azione, con ricerca, filtri e ordinamento',
  query: ActionModelListQuerySchema,
  response: ActionModelListResponseSchema,
});

export const exportActionModels = defineEndpoint({
  method: 'GET',
  path: '/api/action-models/export',
  permission: 'read:action-model',
  tag: 'actions',
  summary: 'Esporta i modelli di azione filtrati (CSV o XLSX)',
  query: ActionModelFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const createActionModel = defineEndpoint({
  method: 'POST',
  path: '/api/action-models',
  permission: 'create:action-model',
  tag: 'actions',
  summary: 'Crea un modello di azione',
  body: ActionModelCreateSchema,
  response: ActionModelSchema,
  status: 201,
});

export const getActionModel = defineEndpoint({
  method: 'GET',
  path: '/api/action-models/:modelId',
  permission: 'read:action-model',
  tag: 'actions',
  summary: 'Un modello di azione',
  params: ModelParams,
  response: ActionModelSchema,
});

export const updateActionModel = defineEndpoint({
  method: 'PATCH',
  path: '/api/action-models/:modelId',
  permission: 'update:action-model',
  tag: 'actions',
  summary: 'Modifica un modello di azione o lo disattiva (un modello non si elimina)',
  params: ModelParams,
  body: ActionModelUpdateSchema,
  response: ActionModelSchema,
});

// --- Actions ---

export const listActions = defineEndpoint({
  method: 'GET',
  path: '/api/actions',
  permission: 'read:action',
  tag: 'actions',
  summary:
    'Azioni (lo staff le vede tutte, un destinatario le proprie), con ricerca, filtri, scadute e ordinamento',
  query: ActionListQuerySchema,
  response: ActionListResponseSchema,
});

export const exportActions = defineEndpoint({
  method: 'GET',
  path: '/api/actions/export',
  permission: 'export:action',
  tag: 'actions',
  summary: 'Esporta le azioni filtrate (CSV o XLSX)',
  query: ActionFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getMyActions = defineEndpoint({
  method: 'GET',
  path: '/api/actions/mine',
  permission: 'read:action',
  tag: 'actions',
  summary: 'Le azioni del destinatario da svolgere (prima le più urgenti) e le ultime completate',
  response: MyActionsResponseSchema,
});

export const previewActionBulk = defineEndpoint({
  method: 'POST',
  path: '/api/actions/bulk/preview',
  permission: 'create:action',
  tag: 'actions',
  summary: 'Conta i destinatari di un’assegnazione in blocco e quante azioni nuove creerebbe',
  body: ActionBulkPreviewSchema,
  response: ActionBulkPreviewResultSchema,
});

export const assignActionBulk = defineEndpoint({
  method: 'POST',
  path: '/api/actions/bulk',
  permission: 'create:action',
  tag: 'actions',
  summary:
    'Assegna un’azione da un modello a un elenco o a un filtro di destinatari, in una transazione (409 se il conteggio confermato è cambiato; idempotente)',
  body: ActionBulkSchema,
  response: ActionBulkResultSchema,
});

export const getAction = defineEndpoint({
  method: 'GET',
  path: '/api/actions/:actionId',
  permission: 'read:action',
  tag: 'actions',
  summary: 'Un’azione: modello, destinatario, scadenza, stato e prova',
  params: ActionParams,
  response: ActionDetailSchema,
});

export const transitionAction = defineEndpoint({
  method: 'POST',
  path: '/api/actions/:actionId/transition',
  permission: 'update:action',
  tag: 'actions',
  summary: 'Il destinatario avvia l’azione o la completa (con il testo di prova, se il modello lo chiede)',
  params: ActionParams,
  body: ActionTransitionSchema,
  response: ActionDetailSchema,
});

/** The body is the file itself (application/pdf, image/png, image/jpeg or application/octet-stream); checked by its magic bytes. */
const EVIDENCE_UPLOAD_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'application/octet-stream'];

export const uploadActionEvidence = defineUploadEndpoint({
  method: 'POST',
  path: '/api/actions/:actionId/evidence',
  permission: 'update:action',
  tag: 'actions',
  summary:
    'Il destinatario completa l’azione caricando il file di prova (PDF, PNG o JPEG); il corpo è il file',
  params: ActionParams,
  query: ActionEvidenceUploadQuerySchema,
  response: ActionDetailSchema,
  upload: { types: EVIDENCE_UPLOAD_TYPES },
  media: { request: EVIDENCE_UPLOAD_TYPES },
});

export const downloadActionEvidence = defineEndpoint({
  method: 'GET',
  path: '/api/actions/:actionId/evidence',
  permission: 'read:action',
  tag: 'actions',
  summary: 'Scarica il file di prova dell’azione',
  params: ActionParams,
  response: z.string(),
  download: true,
  media: { response: ['application/pdf', 'image/png', 'image/jpeg'] },
});

export const reviewAction = defineEndpoint({
  method: 'POST',
  path: '/api/actions/:actionId/review',
  permission: 'decide:action',
  tag: 'actions',
  summary: 'Lo staff verifica un’azione completata o la rimanda in corso con una nota',
  params: ActionParams,
  body: ActionReviewSchema,
  response: ActionDetailSchema,
});
