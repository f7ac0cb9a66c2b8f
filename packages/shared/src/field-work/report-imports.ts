import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import { VISIT_STATES } from './field-work.constants.ts';
import { REPORT_PHOTO_LIMITS } from './report-photos.ts';

/**
 * Staff import a detector's "Esporta bozze" file when the device broke (issue 39, decision 051): the
 * file is what the device's queue exports (`kind: 'portale-visit-reports'`), each report is sent on
 * behalf of the detector through the same path as the device's sync, idempotent by its client id.
 * Version 2 (decision 051, amendment) carries each report's photos the server does not have yet
 * (base64, with media type, size and SHA-256); version 1 files (no photos) still import.
 */
export const DRAFT_EXPORT_KIND = 'portale-visit-reports';
/** The version the device writes. */
export const DRAFT_EXPORT_VERSION = 2;
/** The versions the import reads. */
export const DRAFT_EXPORT_VERSIONS: readonly number[] = [1, DRAFT_EXPORT_VERSION];
/** At most this many reports in one file (a device holds a handful). */
export const DRAFT_IMPORT_MAX_REPORTS = 200;
/**
 * The file's size at most, in MB: one report with 5 photos of 5 MB (34 MB of base64) always fits, and
 * so do a handful of reports with ordinary photos (a compressed photo is a few hundred KB). A larger
 * file is exported report by report («Esporta» beside each report on the device).
 */
export const DRAFT_IMPORT_MAX_MB = 48;
/** The file's text, at most (characters: the file is ASCII but for the reports' text). */
export const DRAFT_IMPORT_MAX_CHARS = DRAFT_IMPORT_MAX_MB * 1024 * 1024;
/** The import request's body, at most (bytes): the file's text as a JSON string, escaped, and `confirm`. */
export const DRAFT_IMPORT_MAX_BODY_BYTES = 64 * 1024 * 1024;

export const REPORT_IMPORT_MESSAGES = {
  content: 'Scegli il file esportato con «Esporta bozze».',
  tooLarge: `Il file è troppo grande: al massimo ${DRAFT_IMPORT_MAX_MB} MB. Sul dispositivo esporta i resoconti uno per volta («Esporta» accanto a ciascuno).`,
  busy: 'È già in corso un’altra importazione di bozze: riprova tra qualche secondo.',
  notJson:
    'Il file non è un’esportazione di bozze del Portale Scuole (non è JSON): scegli il file scaricato con «Esporta bozze».',
  wrongKind:
    'Il file non è un’esportazione di bozze del Portale Scuole: scegli il file scaricato con «Esporta bozze».',
  wrongVersion:
    'Versione del file di bozze non supportata: aggiorna l’app sul dispositivo ed esporta di nuovo.',
  badReport: (n: number, why: string) => `Bozza n. ${n} del file non valida: ${why}`,
  empty: 'Il file non contiene bozze da importare.',
  tooMany: `Il file contiene troppe bozze: al massimo ${DRAFT_IMPORT_MAX_REPORTS} per volta.`,
  duplicate: (n: number) => `Bozza n. ${n} ripetuta nel file (stesso identificativo di un’altra).`,
  visitNotFound: 'Visita non trovata.',
  notYetHeld: 'La visita non è ancora avvenuta.',
  teacherNotOfSite: 'Tra gli insegnanti incontrati c’è chi non è di questo plesso.',
  notReportable: 'La visita ha già un resoconto: questa versione non la sostituisce.',
  reassigned: 'La visita è assegnata a un altro rilevatore: verrà conservata come conflitto.',
  changed: 'La visita è stata annullata o segnata come mancata: verrà conservata come conflitto.',
  keptConflict: 'Già conservata come conflitto da risolvere.',
  reused: 'Questa bozza è già arrivata con un contenuto diverso: non verrà sovrascritta.',
  photoData: 'Il contenuto della foto nel file non è valido: il file è danneggiato.',
  photoSize: 'La dimensione della foto non corrisponde a quella indicata nel file: il file è danneggiato.',
  photoHash: 'La foto nel file è incompleta o danneggiata (l’impronta SHA-256 non corrisponde).',
  photoType: 'La foto deve essere un file JPEG o PNG.',
  photoTooLarge: `La foto supera i ${REPORT_PHOTO_LIMITS.maxBytes / 1024 / 1024} MB.`,
  photoIndexTaken: 'Il resoconto ha già un’altra foto in questa posizione.',
  photoQuota: (mb: number) =>
    `Il rilevatore ha raggiunto lo spazio massimo per le foto (${mb} MB): la foto non viene caricata.`,
  photoOfInvalid: 'Il resoconto non è importabile: le sue foto non vengono caricate.',
} as const;

/**
 * A photo of a report in the file (version 2): the compressed Blob the device keeps, in base64, with
 * what the device knows of it. The content (base64, size, SHA-256, magic bytes) is checked photo by
 * photo: a bad photo is refused on its own, its report still imports.
 */
export const DraftFilePhotoSchema = z.object({
  index: z
    .number({ error: 'posizione della foto non valida.' })
    .int('posizione della foto non valida.')
    .min(0, 'posizione della foto non valida.')
    .max(REPORT_PHOTO_LIMITS.perReport - 1, 'posizione della foto non valida.'),
  mediaType: z.string({ error: 'tipo della foto mancante.' }),
  sizeBytes: z.number({ error: 'dimensione della foto mancante.' }).int().nonnegative(),
  sha256: z.string({ error: 'impronta SHA-256 della foto mancante.' }),
  data: z.string({ error: 'contenuto della foto mancante.' }),
});
export type DraftFilePhoto = z.infer<typeof DraftFilePhotoSchema>;

/** One report of the file: what the device's store keeps (other fields of the record are ignored). */
export const DraftFileReportSchema = z.object({
  clientReportId: z.uuid({ error: 'identificativo non valido.' }),
  visitId: z.number({ error: 'visita non valida.' }).int('visita non valida.').positive('visita non valida.'),
  report: z.string({ error: 'resoconto mancante.' }),
  teachersMet: z
    .array(z.number().int().positive(), { error: 'elenco di insegnanti non valido.' })
    .max(500, 'troppi insegnanti.'),
  status: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  /** Version 2: the photos still on the device (none in a version 1 file). */
  photos: z
    .array(DraftFilePhotoSchema, { error: 'elenco di foto non valido.' })
    .max(REPORT_PHOTO_LIMITS.perReport, `al massimo ${REPORT_PHOTO_LIMITS.perReport} foto per resoconto.`)
    .refine(
      (list) => new Set(list.map((p) => p.index)).size === list.length,
      'due foto nella stessa posizione.',
    )
    .default([]),
});
export type DraftFileReport = z.infer<typeof DraftFileReportSchema>;

export const ReportImportBodySchema = z
  .object({
    /** The file's text, as the browser read it. */
    content: z
      .string({ error: REPORT_IMPORT_MESSAGES.content })
      .min(1, REPORT_IMPORT_MESSAGES.content)
      .max(DRAFT_IMPORT_MAX_CHARS, REPORT_IMPORT_MESSAGES.tooLarge),
    /** false: only look (what each report would become); true: send them. */
    confirm: z.boolean({ error: 'Indica se confermare l’importazione.' }).default(false),
  })
  .strict();
export type ReportImportBody = z.output<typeof ReportImportBodySchema>;

/**
 * `new`: would be sent; `imported`: sent now; `received`: the server already has it (a replay: nothing
 * new); `conflict`: the visit changed (cancelled, missed, another detector's): kept for staff to
 * decide; `invalid`: cannot be sent (unknown visit, not yet held, already reported…), nothing stored.
 */
export const REPORT_IMPORT_STATUSES = ['new', 'imported', 'received', 'conflict', 'invalid'] as const;
export type ReportImportStatus = (typeof REPORT_IMPORT_STATUSES)[number];
export const REPORT_IMPORT_STATUS_LABELS: Record<ReportImportStatus, string> = {
  new: 'Nuovo',
  imported: 'Importato',
  received: 'Già ricevuto',
  conflict: 'In conflitto',
  invalid: 'Non importabile',
};

/**
 * A photo of a report in the file. Before confirming: `valid` (would be loaded), `invalid` (refused,
 * with why), `received` (the server has it already). Once confirmed: `landed` (now in the file store),
 * `received`, `refused` (with why; nothing stored).
 */
export const REPORT_IMPORT_PHOTO_STATUSES = ['valid', 'invalid', 'received', 'landed', 'refused'] as const;
export type ReportImportPhotoStatus = (typeof REPORT_IMPORT_PHOTO_STATUSES)[number];

export const ReportImportPhotoSchema = z.object({
  index: z.number().int(),
  sizeBytes: z.number().int(),
  status: z.enum(REPORT_IMPORT_PHOTO_STATUSES),
  message: z.string().nullable(),
});
export type ReportImportPhoto = z.infer<typeof ReportImportPhotoSchema>;

export const ReportImportItemSchema = z.object({
  clientReportId: z.string(),
  visitId: z.number().int(),
  site: z.object({ id: z.number().int(), name: z.string(), ministryCode: z.string() }).nullable(),
  scheduledAt: z.string().nullable(),
  /** The visit's state now (null: no such visit). */
  visitState: z.enum(VISIT_STATES).nullable(),
  /** The report's first characters, to recognise it. */
  excerpt: z.string(),
  teachersMet: z.number().int(),
  /** When the detector wrote it, as the device says (null when the file has no date). */
  writtenAt: z.string().nullable(),
  status: z.enum(REPORT_IMPORT_STATUSES),
  /** Why it is in conflict or not importable, in Italian. */
  message: z.string().nullable(),
  /** The photos the file carries for this report, in their order (none in a version 1 file). */
  photos: z.array(ReportImportPhotoSchema),
});
export type ReportImportItem = z.infer<typeof ReportImportItemSchema>;

export const ReportImportResultSchema = z.object({
  detector: z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() }),
  exportedAt: z.string().nullable(),
  items: z.array(ReportImportItemSchema),
  counts: z.record(z.enum(REPORT_IMPORT_STATUSES), z.number().int()),
  applied: z.boolean(),
});
export type ReportImportResult = z.infer<typeof ReportImportResultSchema>;

/**
 * Staff who manage detectors (`manage:detector:any`) import a detector's exported drafts on their
 * behalf: first a look (`confirm: false`), then the send; audited with the staff actor.
 */
export const importDetectorReports = defineEndpoint({
  method: 'POST',
  path: '/api/detectors/:userId/report-imports',
  permission: 'manage:detector',
  tag: 'field-work',
  summary:
    'Importa il file «Esporta bozze» di un rilevatore: prima mostra cosa contiene (nuovo, già ricevuto, in conflitto; le foto e se sono valide), poi invia i resoconti e carica le loro foto a suo nome (idempotente per identificativo della bozza e posizione della foto)',
  params: z.object({ userId: IdParamSchema }),
  body: ReportImportBodySchema,
  response: ReportImportResultSchema,
  // 413: a file past the bound; 429: another import is being read or landed (one at a time).
  errors: [413],
});
