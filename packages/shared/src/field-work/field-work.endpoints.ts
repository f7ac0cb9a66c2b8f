import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { ExportFormatSchema } from '../lists/list-query.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  AssignmentBodySchema,
  AssignmentResultSchema,
  DetectorFiltersSchema,
  DetectorListQuerySchema,
  DetectorListResponseSchema,
  DetectorSiteDetailSchema,
  DetectorSiteFiltersSchema,
  DetectorSiteListQuerySchema,
  DetectorSiteListResponseSchema,
  DetectorSummarySchema,
  DetectorUpdateSchema,
  DeviceQueueReportSchema,
  DeviceQueueStateSchema,
  MyVisitsResponseSchema,
  SiteTeachersResponseSchema,
  SiteVisitsResponseSchema,
  VisitCreateSchema,
  VisitOutcomeSchema,
  VisitReportSchema,
  VisitSchema,
} from './field-work.schemas.ts';

const SiteParams = z.object({ siteId: IdParamSchema });
const VisitParams = z.object({ visitId: IdParamSchema });
const DetectorParams = z.object({ userId: IdParamSchema });

export const listDetectors = defineEndpoint({
  method: 'GET',
  path: '/api/detectors',
  permission: 'read:detector',
  tag: 'field-work',
  summary: 'Rilevatori: province coperte e numero di plessi assegnati',
  query: DetectorListQuerySchema,
  response: DetectorListResponseSchema,
});

export const exportDetectors = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/export',
  permission: 'export:detector',
  tag: 'field-work',
  summary: 'Esporta i rilevatori filtrati (CSV o XLSX)',
  query: DetectorFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const updateDetector = defineEndpoint({
  method: 'PATCH',
  path: '/api/detectors/:userId',
  permission: 'manage:detector',
  tag: 'field-work',
  summary: 'Province coperte e stato del rilevatore',
  params: DetectorParams,
  body: DetectorUpdateSchema,
  response: DetectorSummarySchema,
});

/**
 * A detector's browser reports its queue of unsent reports when it is online (issue 39). The detector
 * alone, for themselves (`update:detector:own`); staff read it on the detectors list.
 */
export const reportDeviceQueue = defineEndpoint({
  method: 'PUT',
  path: '/api/detectors/:userId/device-queue',
  permission: 'update:detector',
  tag: 'field-work',
  summary: 'Il dispositivo del rilevatore comunica quanti resoconti non ha ancora inviato e da quando',
  params: DetectorParams,
  body: DeviceQueueReportSchema,
  response: DeviceQueueStateSchema,
});

export const assignSchoolSites = defineEndpoint({
  method: 'POST',
  path: '/api/school-site-assignments',
  permission: 'manage:school-site',
  tag: 'field-work',
  summary:
    'Assegna plessi a un rilevatore (uno, un elenco o un filtro), li sposta o li toglie; prima conta, poi applica',
  body: AssignmentBodySchema,
  response: AssignmentResultSchema,
});

/**
 * The detector's pages (seed-spec §6: super-admin and detector only, not Sylla or Cromos staff) need
 * `read:visit`: the detector's own plessi (`:own`), every plesso for the super-admin (`:any`).
 */
export const listMySchoolSites = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/me/school-sites',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'I plessi assegnati al rilevatore (tutti i plessi assegnati per l’amministratore)',
  query: DetectorSiteListQuerySchema,
  response: DetectorSiteListResponseSchema,
});

export const exportMySchoolSites = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/me/school-sites/export',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'Esporta i plessi assegnati filtrati (CSV o XLSX)',
  query: DetectorSiteFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const getMyVisits = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/me/visits',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'Le prossime visite del rilevatore e i resoconti da correggere',
  response: MyVisitsResponseSchema,
});

export const getDetectorSite = defineEndpoint({
  method: 'GET',
  path: '/api/detectors/me/school-sites/:siteId',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'Un plesso assegnato: indirizzo, insegnanti e visite',
  params: SiteParams,
  response: DetectorSiteDetailSchema,
});

export const listSiteTeachers = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites/:siteId/teachers',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'Gli insegnanti del plesso (per il suo rilevatore e l’amministratore)',
  params: SiteParams,
  response: SiteTeachersResponseSchema,
});

export const listSiteVisits = defineEndpoint({
  method: 'GET',
  path: '/api/school-sites/:siteId/visits',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'Le visite al plesso',
  params: SiteParams,
  response: SiteVisitsResponseSchema,
});

export const createVisit = defineEndpoint({
  method: 'POST',
  path: '/api/school-sites/:siteId/visits',
  permission: 'create:visit',
  tag: 'field-work',
  summary: 'Pianifica una visita al plesso (data e ora italiane, nel futuro)',
  params: SiteParams,
  body: VisitCreateSchema,
  response: VisitSchema,
  status: 201,
});

export const reportVisit = defineEndpoint({
  method: 'POST',
  path: '/api/visits/:visitId/report',
  permission: 'update:visit',
  tag: 'field-work',
  summary:
    'Invia (o corregge) il resoconto: la visita è svolta e va in revisione. Con clientReportId l’invio è idempotente: un replay risponde il risultato salvato; contenuto diverso o visita cambiata nel frattempo → 409',
  params: VisitParams,
  body: VisitReportSchema,
  response: VisitSchema,
  errors: [409],
});

export const closeVisit = defineEndpoint({
  method: 'POST',
  path: '/api/visits/:visitId/outcome',
  permission: 'update:visit',
  tag: 'field-work',
  summary: 'Segna la visita pianificata come annullata o mancata',
  params: VisitParams,
  body: VisitOutcomeSchema,
  response: VisitSchema,
});

export const visitCalendar = defineEndpoint({
  method: 'GET',
  path: '/api/visits/:visitId/calendar.ics',
  permission: 'read:visit',
  tag: 'field-work',
  summary: 'La visita come evento di calendario (iCalendar)',
  params: VisitParams,
  response: z.string(),
  download: true,
  media: { response: ['text/calendar'] },
});
