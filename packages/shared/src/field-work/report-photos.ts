import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';

/**
 * The photos of a visit report (issue 39, decision 055): up to 5 per report, JPEG or PNG, uploaded
 * resumably with tus (`REPORT_PHOTO_UPLOAD_PATH`) once the report is on the server; staff who read
 * detectors and the detector themselves see them.
 */
export const REPORT_PHOTO_LIMITS = {
  /** Photos per report: indexes 0–4. */
  perReport: 5,
  /** One photo after compression in the browser (the server refuses more with a 413). */
  maxBytes: 5 * 1024 * 1024,
  /** The longest side the browser scales a photo down to. */
  maxSidePx: 1600,
  /** JPEG quality of the browser's compression. */
  quality: 0.8,
} as const;

export const REPORT_PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;

/**
 * The tus endpoint (creation, HEAD, PATCH, termination): a protocol route (`@tus/server`), described by
 * the contracts at the end of this file (headers, statuses, Italian error bodies).
 */
export const REPORT_PHOTO_UPLOAD_PATH = '/api/report-photo-uploads';
/** The one tus version the server speaks (`Tus-Resumable`). */
export const TUS_VERSION = '1.0.0';

export const REPORT_PHOTO_MESSAGES = {
  tooMany: `Al massimo ${REPORT_PHOTO_LIMITS.perReport} foto per resoconto.`,
  tooLarge: 'La foto supera i 5 MB anche dopo la compressione: scegline una più piccola.',
  quota: 'Hai raggiunto lo spazio massimo per le foto dei tuoi resoconti: contatta lo staff.',
  badType: 'La foto deve essere un file JPEG o PNG.',
  badMetadata: 'Dati della foto non validi: riprova a inviare il resoconto.',
  reportMissing: 'Il resoconto di questa foto non è ancora sul server: invia prima il resoconto.',
  alreadyReceived: 'Questa foto è già stata ricevuta.',
  indexTaken: 'Al resoconto è già stata aggiunta un’altra foto in questa posizione.',
  damaged: 'La foto è arrivata incompleta o danneggiata: riprova.',
  notFound: 'Foto non trovata.',
  notDeletable: 'Non puoi eliminare questa foto.',
  reviewed: 'Il resoconto è già stato revisionato: solo lo staff può eliminarne le foto.',
  // The tus protocol's own refusals (decision 055, amendment), with the status tus gives them.
  tusVersion: 'Versione del protocollo di caricamento non supportata: aggiorna la pagina.',
  badHeaders: 'Intestazioni del caricamento non valide: riprova a inviare il resoconto.',
  uploadGone: 'Caricamento della foto non trovato o scaduto: riprova a inviare il resoconto.',
  offsetConflict: 'Il caricamento della foto non riprende dal punto giusto: riprova.',
  badContentType: 'Le parti della foto vanno inviate come application/offset+octet-stream.',
  uploadFailed: 'Il caricamento della foto non è riuscito: riprova più tardi.',
} as const;

export const ReportPhotoSchema = z.object({
  id: z.number().int(),
  clientReportId: z.string().uuid(),
  index: z.number().int().min(0).max(4),
  mediaType: z.enum(REPORT_PHOTO_TYPES),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
  /** Whether the caller may delete it (staff who review; its detector until the report is reviewed). */
  deletable: z.boolean(),
});
export type ReportPhoto = z.infer<typeof ReportPhotoSchema>;

export const ReportPhotoListSchema = z.object({ items: z.array(ReportPhotoSchema) });

const VisitParams = z.object({ visitId: IdParamSchema });

/**
 * Without `clientReportId`: the photos of the reports the visit holds (a conflict's only once staff
 * accepted it). With it: the photos of that one report sent for the visit, a kept conflict's included,
 * so staff see the device's version whole beside the visit (decision 061).
 */
export const VisitPhotosQuerySchema = z.object({
  clientReportId: z.string().uuid('Resoconto non valido.').optional(),
});

export const listVisitPhotos = defineEndpoint({
  method: 'GET',
  path: '/api/visits/:visitId/photos',
  permission: 'read:visit-photo',
  tag: 'field-work',
  summary: 'Le foto del resoconto di una visita',
  params: VisitParams,
  query: VisitPhotosQuerySchema,
  response: ReportPhotoListSchema,
});

export const downloadVisitPhoto = defineEndpoint({
  method: 'GET',
  path: '/api/visits/:visitId/photos/:photoId',
  permission: 'read:visit-photo',
  tag: 'field-work',
  summary: 'Una foto del resoconto di una visita',
  params: VisitParams.extend({ photoId: IdParamSchema }),
  response: z.string(),
  download: true,
  media: { response: [...REPORT_PHOTO_TYPES] },
});

const PhotoParams = VisitParams.extend({ photoId: IdParamSchema });

/**
 * Deletes a sent photo (a wrong one, a child's face): staff who decide reviews, or the detector who
 * wrote the report while the visit's report is not yet approved or rejected. The file leaves the store
 * and the quota; the row stays as a tombstone so a replayed upload does not bring it back (decision 055).
 */
export const deleteVisitPhoto = defineEndpoint({
  method: 'DELETE',
  path: '/api/visits/:visitId/photos/:photoId',
  permission: 'read:visit-photo',
  tag: 'field-work',
  summary:
    'Elimina una foto del resoconto (staff che revisiona; il rilevatore finché il resoconto non è revisionato)',
  params: PhotoParams,
  response: z.undefined(),
  status: 204,
});

// The tus protocol (https://tus.io/protocols/resumable-upload, 1.0.0, extensions creation, termination
// and expiration), served by `@tus/server` behind these contracts: the route checks the session, the
// grant, the report's owner and the headers below before tus reads a byte.

const tusResumable = z.literal(TUS_VERSION).describe('Versione del protocollo tus (1.0.0)');
const byteCount = z
  .string()
  .regex(/^\d{1,16}$/)
  .describe('Numero di byte (intero non negativo)');
const UPLOAD_ID = z
  .string()
  .min(1)
  .max(200)
  .describe('Id del caricamento: `<clientReportId>_<indice>_<casuale>` (dalla Location della creazione)');
const UploadParams = z.object({ uploadId: UPLOAD_ID });
const TUS_ANSWER = {
  'Tus-Resumable': 'Versione del protocollo (1.0.0)',
} as const;

export const createReportPhotoUpload = defineEndpoint({
  method: 'POST',
  path: REPORT_PHOTO_UPLOAD_PATH,
  permission: 'create:visit-photo',
  tag: 'field-work',
  summary:
    'tus, creazione: apre il caricamento di una foto di un resoconto già inviato (Upload-Metadata: clientReportId, index 0–4, filetype, sha256, in base64); 409 photo_already_received se la foto è già sul server',
  headers: z.object({
    'tus-resumable': tusResumable,
    'upload-length': byteCount.describe('Dimensione della foto in byte (al massimo 5 MB)'),
    'upload-metadata': z
      .string()
      .max(1000)
      .describe('Coppie `chiave valore-base64` separate da virgole: clientReportId, index, filetype, sha256'),
  }),
  responseHeaders: {
    ...TUS_ANSWER,
    Location: 'Indirizzo del caricamento (per HEAD, PATCH e DELETE)',
    'Upload-Expires': 'Scadenza del caricamento non completato (24 ore)',
  },
  response: z.undefined(),
  status: 201,
  errors: [404, 409, 412, 413, 415, 422],
});

export const reportPhotoUploadOffset = defineEndpoint({
  method: 'HEAD',
  path: `${REPORT_PHOTO_UPLOAD_PATH}/:uploadId`,
  permission: 'create:visit-photo',
  tag: 'field-work',
  summary: 'tus: a che byte è arrivato il caricamento (Upload-Offset), per riprenderlo dopo un’interruzione',
  params: UploadParams,
  headers: z.object({ 'tus-resumable': tusResumable }),
  responseHeaders: {
    ...TUS_ANSWER,
    'Upload-Offset': 'Byte già ricevuti',
    'Upload-Length': 'Dimensione annunciata della foto',
  },
  response: z.undefined(),
  errors: [410, 412],
});

export const appendReportPhotoUpload = defineEndpoint({
  method: 'PATCH',
  path: `${REPORT_PHOTO_UPLOAD_PATH}/:uploadId`,
  permission: 'create:visit-photo',
  tag: 'field-work',
  summary:
    'tus: aggiunge una parte della foto da Upload-Offset; all’ultima parte la foto è controllata (JPEG o PNG, SHA-256 annunciato, quota) e salvata',
  params: UploadParams,
  headers: z.object({
    'tus-resumable': tusResumable,
    'upload-offset': byteCount.describe('Byte da cui riprende questa parte (quello di HEAD)'),
  }),
  responseHeaders: { ...TUS_ANSWER, 'Upload-Offset': 'Byte ricevuti dopo questa parte' },
  media: { request: ['application/offset+octet-stream'] },
  response: z.undefined(),
  status: 204,
  errors: [410, 412],
});

export const cancelReportPhotoUpload = defineEndpoint({
  method: 'DELETE',
  path: `${REPORT_PHOTO_UPLOAD_PATH}/:uploadId`,
  permission: 'create:visit-photo',
  tag: 'field-work',
  summary: 'tus, termination: abbandona un caricamento non completato (una foto già salvata resta)',
  params: UploadParams,
  headers: z.object({ 'tus-resumable': tusResumable }),
  responseHeaders: TUS_ANSWER,
  response: z.undefined(),
  status: 204,
  errors: [410, 412],
});
