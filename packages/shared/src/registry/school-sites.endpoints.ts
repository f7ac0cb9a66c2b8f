import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  SchoolSiteDetailSchema,
  SchoolSiteFiltersSchema,
  SchoolSiteListQuerySchema,
  SchoolSiteListResponseSchema,
  SchoolSiteUpdateSchema,
} from './school-sites.schemas.ts';

const SchoolSiteParams = z.object({ siteId: IdParamSchema });

export const listSchoolSites = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites',
  permission: 'read:school-site',
  tag: 'registry',
  summary: "Plessi dell'anagrafe nazionale: ricerca, filtri, ordinamento e pagine",
  query: SchoolSiteListQuerySchema,
  response: SchoolSiteListResponseSchema,
});

export const exportSchoolSites = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites/export',
  permission: 'export:school-site',
  tag: 'registry',
  summary: 'Esporta i plessi filtrati (CSV o XLSX)',
  query: SchoolSiteFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getSchoolSite = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites/:siteId',
  permission: 'read:school-site',
  tag: 'registry',
  summary: 'Scheda del plesso',
  params: SchoolSiteParams,
  response: SchoolSiteDetailSchema,
});

export const updateSchoolSite = defineEndpoint({
  method: 'PATCH',
  path: '/api/school-sites/:siteId',
  permission: 'update:school-site',
  tag: 'registry',
  summary: 'Corregge i dati del plesso',
  params: SchoolSiteParams,
  body: SchoolSiteUpdateSchema,
  response: SchoolSiteDetailSchema,
});
