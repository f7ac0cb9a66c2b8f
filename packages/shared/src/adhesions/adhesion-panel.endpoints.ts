import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  AdhesionFunnelQuerySchema,
  AdhesionFunnelSchema,
  AdhesionPanelFiltersSchema,
  AdhesionPanelListSchema,
  AdhesionPanelQuerySchema,
  ReminderFiltersSchema,
  ReminderPreviewSchema,
  ReminderResultSchema,
  WithdrawalBodySchema,
  WithdrawalResultSchema,
} from './adhesion-panel.schemas.ts';

export const getAdhesionFunnel = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/funnel',
  permission: 'read:adhesion',
  tag: 'adhesions',
  summary:
    'Imbuto delle adesioni: istituti per stato, con filtri per regione, provincia e giorni nello stato',
  query: AdhesionFunnelQuerySchema,
  response: AdhesionFunnelSchema,
});

export const listAdhesions = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions',
  permission: 'read:adhesion',
  tag: 'adhesions',
  summary:
    'Istituti iscritti al programma con il loro stato di adesione: ricerca, filtri, ordinamento e pagine',
  query: AdhesionPanelQuerySchema,
  response: AdhesionPanelListSchema,
});

export const exportAdhesions = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/export',
  permission: 'export:adhesion',
  tag: 'adhesions',
  summary: 'Esporta gli istituti del pannello adesioni filtrati (CSV o XLSX)',
  query: AdhesionPanelFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const previewAdhesionReminders = defineEndpoint({
  method: 'GET',
  path: '/api/adhesions/reminders/preview',
  permission: 'manage:adhesion',
  tag: 'adhesions',
  summary: 'Quanti istituti riceverebbero ora il sollecito (esclusi quelli già sollecitati oggi)',
  query: ReminderFiltersSchema,
  response: ReminderPreviewSchema,
});

export const sendAdhesionReminders = defineEndpoint({
  method: 'POST',
  path: '/api/adhesions/reminders',
  permission: 'manage:adhesion',
  tag: 'adhesions',
  summary: 'Invia un sollecito agli istituti filtrati fermi in uno stato (mai due volte lo stesso giorno)',
  body: ReminderFiltersSchema,
  response: ReminderResultSchema,
});

export const withdrawAdhesion = defineEndpoint({
  method: 'POST',
  path: '/api/institutes/:instituteId/adhesion/withdrawal',
  permission: 'manage:adhesion',
  tag: 'adhesions',
  summary: "Ritira l'adesione di un istituto attivo, con il motivo (staff o dirigente dell'istituto)",
  params: z.object({ instituteId: IdParamSchema }),
  body: WithdrawalBodySchema,
  response: WithdrawalResultSchema,
});
