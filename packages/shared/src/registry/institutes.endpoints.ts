import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  InstituteDetailSchema,
  InstituteFiltersSchema,
  InstituteListQuerySchema,
  InstituteListResponseSchema,
  InstituteUpdateSchema,
} from './institutes.schemas.ts';

const InstituteParams = z.object({ instituteId: IdParamSchema });

export const listInstitutes = defineEndpoint({
  method: 'GET',
  path: '/api/institutes',
  permission: 'read:institute',
  tag: 'registry',
  summary: "Istituti dell'anagrafe nazionale: ricerca, filtri, ordinamento e pagine",
  query: InstituteListQuerySchema,
  response: InstituteListResponseSchema,
});

export const exportInstitutes = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/export',
  permission: 'export:institute',
  tag: 'registry',
  summary: 'Esporta gli istituti filtrati (CSV o XLSX)',
  query: InstituteFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getInstitute = defineEndpoint({
  method: 'GET',
  path: '/api/institutes/:instituteId',
  permission: 'read:institute',
  tag: 'registry',
  summary: "Scheda dell'istituto: dati, plessi, persone e storico dell'adesione",
  params: InstituteParams,
  response: InstituteDetailSchema,
});

export const updateInstitute = defineEndpoint({
  method: 'PATCH',
  path: '/api/institutes/:instituteId',
  permission: 'update:institute',
  tag: 'registry',
  summary: "Corregge i recapiti dell'istituto",
  params: InstituteParams,
  body: InstituteUpdateSchema,
  response: InstituteDetailSchema,
});
