import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import {
  ResultsExportQuerySchema,
  ResultsMethodologySchema,
  ResultsQuerySchema,
  ResultsResponseSchema,
} from './results.schemas.ts';

/** The public results of the closed surveys (issue 12): aggregated and suppressed by the API (decision 018). */
export const getResults = defineEndpoint({
  method: 'GET',
  path: '/api/results',
  permission: 'public',
  tag: 'results',
  summary:
    'Risultati aggregati di un’indagine conclusa, per regione e grado scolastico (gruppi e numeri sopra la soglia di protezione)',
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

/** What the methodology page shows of the protections in force (decision 035). */
export const getResultsMethodology = defineEndpoint({
  method: 'GET',
  path: '/api/results/methodology',
  permission: 'public',
  tag: 'results',
  summary:
    'La soglia di protezione dei risultati in vigore, la soglia minima di legge e il segno dei dati protetti',
  response: ResultsMethodologySchema,
});
