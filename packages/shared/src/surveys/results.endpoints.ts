import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ResultsExportQuerySchema, ResultsQuerySchema, ResultsResponseSchema } from './results.schemas.ts';

/** The public results of the closed surveys (issue 12): aggregated and suppressed by the API (decision 018). */
export const getResults = defineEndpoint({
  method: 'GET',
  path: '/api/results',
  permission: 'public',
  tag: 'results',
  summary:
    'Risultati aggregati di un’indagine conclusa, per regione e grado scolastico (gruppi di almeno 5 persone)',
  query: ResultsQuerySchema,
  response: ResultsResponseSchema,
});

export const exportResults = defineEndpoint({
  method: 'GET',
  path: '/api/results/export',
  permission: 'public',
  tag: 'results',
  summary: 'Esporta i risultati mostrati in CSV o XLSX (stessi filtri, stesse protezioni)',
  query: ResultsExportQuerySchema,
  response: z.string(),
  download: true,
});
