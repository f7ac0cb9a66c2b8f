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

/** The tus endpoint (creation, HEAD, PATCH, termination): a protocol route of its own, not a JSON contract. */
export const REPORT_PHOTO_UPLOAD_PATH = '/api/report-photo-uploads';

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
} as const;

export const ReportPhotoSchema = z.object({
  id: z.number().int(),
  clientReportId: z.string().uuid(),
  index: z.number().int().min(0).max(4),
  mediaType: z.enum(REPORT_PHOTO_TYPES),
  sizeBytes: z.number().int(),
  createdAt: z.string(),
});
export type ReportPhoto = z.infer<typeof ReportPhotoSchema>;

export const ReportPhotoListSchema = z.object({ items: z.array(ReportPhotoSchema) });

const VisitParams = z.object({ visitId: IdParamSchema });

export const listVisitPhotos = defineEndpoint({
  method: 'GET',
  path: '/api/visits/:visitId/photos',
  permission: 'read:visit-photo',
  tag: 'field-work',
  summary: 'Le foto del resoconto di una visita',
  params: VisitParams,
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
