import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import {
  ProgressExportQuerySchema,
  ProgressFiltersSchema,
  ProgressResponseSchema,
} from './progress.schemas.ts';

/** The programme over time: per week, per region or per adhesion state, from dated records. */
export const getProgress = defineEndpoint({
  method: 'GET',
  path: '/api/progress',
  permission: 'read:dashboard',
  tag: 'progress',
  summary: "Avanzamento del programma per settimana, regione o stato d'adesione",
  query: ProgressFiltersSchema,
  response: ProgressResponseSchema,
});

export const exportProgress = defineEndpoint({
  method: 'GET',
  path: '/api/progress/export',
  permission: 'read:dashboard',
  tag: 'progress',
  summary: "Esporta le cifre dell'avanzamento (CSV o XLSX)",
  query: ProgressExportQuerySchema,
  response: z.string(),
  download: true,
});
