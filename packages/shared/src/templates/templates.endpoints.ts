import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import {
  TemplateDetailSchema,
  TemplateDraftSchema,
  TemplateFiltersSchema,
  TemplateListQuerySchema,
  TemplateListResponseSchema,
  TemplateParamsSchema,
  TemplatePreviewSchema,
  TemplateUpdateSchema,
  TemplateVersionListSchema,
  TemplateVersionParamsSchema,
} from './templates.schemas.ts';

/** Contracts of the stored templates (issue 10): every e-mail, SMS and PDF the system produces. */

export const listTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/templates',
  permission: 'read:template',
  tag: 'templates',
  summary:
    'I modelli di e-mail, SMS e documenti, nella versione in uso: ricerca, canale, ordinamento e pagine',
  query: TemplateListQuerySchema,
  response: TemplateListResponseSchema,
});

export const exportTemplates = defineEndpoint({
  method: 'GET',
  path: '/api/templates/export',
  permission: 'read:template',
  tag: 'templates',
  summary: 'Esporta i modelli filtrati (CSV o XLSX)',
  query: TemplateFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getTemplate = defineEndpoint({
  method: 'GET',
  path: '/api/templates/:key',
  permission: 'read:template',
  tag: 'templates',
  summary: 'Un modello nella versione in uso, con i segnaposto che può usare',
  params: TemplateParamsSchema,
  response: TemplateDetailSchema,
});

export const updateTemplate = defineEndpoint({
  method: 'PUT',
  path: '/api/templates/:key',
  permission: 'update:template',
  tag: 'templates',
  summary: 'Salva una nuova versione del modello (409 se un’altra è stata salvata dopo quella di partenza)',
  params: TemplateParamsSchema,
  body: TemplateUpdateSchema,
  response: TemplateDetailSchema,
});

export const listTemplateVersions = defineEndpoint({
  method: 'GET',
  path: '/api/templates/:key/versions',
  permission: 'read:template',
  tag: 'templates',
  summary: 'Tutte le versioni del modello, dalla più recente, con chi e quando',
  params: TemplateParamsSchema,
  response: TemplateVersionListSchema,
});

export const previewTemplate = defineEndpoint({
  method: 'POST',
  path: '/api/templates/:key/preview',
  permission: 'read:template',
  tag: 'templates',
  summary:
    'Anteprima di una bozza con dati di esempio: e-mail (HTML e testo), SMS (testo); per un documento risponde il PDF (application/pdf)',
  params: TemplateParamsSchema,
  body: TemplateDraftSchema,
  response: TemplatePreviewSchema,
});

export const restoreTemplateVersion = defineEndpoint({
  method: 'POST',
  path: '/api/templates/:key/versions/:version/restore',
  permission: 'update:template',
  tag: 'templates',
  summary: 'Ripristina una versione precedente: ne crea una nuova che la copia',
  params: TemplateVersionParamsSchema,
  response: TemplateDetailSchema,
  status: 201,
});
