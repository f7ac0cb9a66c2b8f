import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { IdParamSchema } from '../validation/index.ts';
import { VISIT_STATES } from './field-work.constants.ts';

/**
 * Staff import a detector's "Esporta bozze" file when the device broke (issue 39, decision 051): the
 * file is what the device's queue exports (`kind: 'portale-visit-reports'`, version 1), each report is
 * sent on behalf of the detector through the same path as the device's sync, idempotent by its client id.
 */
export const DRAFT_EXPORT_KIND = 'portale-visit-reports';
/** At most this many reports in one file (a device holds a handful; the body limit is 1 MB). */
export const DRAFT_IMPORT_MAX_REPORTS = 200;
/** The file's text, at most (JSON of 200 reports of 5,000 characters fits under the body limit). */
export const DRAFT_IMPORT_MAX_CHARS = 900_000;

export const REPORT_IMPORT_MESSAGES = {
  content: 'Scegli il file esportato con «Esporta bozze».',
  tooLarge: `Il file è troppo grande: al massimo ${DRAFT_IMPORT_MAX_CHARS.toLocaleString('it-IT')} caratteri.`,
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
} as const;

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
    'Importa il file «Esporta bozze» di un rilevatore: prima mostra cosa contiene (nuovo, già ricevuto, in conflitto), poi invia i resoconti a suo nome (idempotente per identificativo della bozza)',
  params: z.object({ userId: IdParamSchema }),
  body: ReportImportBodySchema,
  response: ReportImportResultSchema,
});
