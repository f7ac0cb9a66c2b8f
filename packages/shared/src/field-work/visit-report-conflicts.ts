import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import {
  ExportFormatSchema,
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { REVIEW_STATES } from '../vocabulary/review.constants.ts';
import { VISIT_NOTE_MAX, VISIT_STATES } from './field-work.constants.ts';
import { PersonNameSchema } from './field-work.schemas.ts';

/**
 * A report that arrived for a visit staff changed meanwhile (issue 39, decisions 043 and 051): kept as
 * the device sent it, next to the visit as it is now, until staff accept it onto the visit or discard it.
 */
export const VISIT_SUBMISSION_OUTCOMES = ['accepted', 'conflict'] as const;
/** `visit_changed`: cancelled or missed; `visit_reassigned`: the visit is another detector's. */
export const CONFLICT_CODES = ['visit_changed', 'visit_reassigned'] as const;
export type ConflictCode = (typeof CONFLICT_CODES)[number];
export const CONFLICT_CODE_LABELS: Record<ConflictCode, string> = {
  visit_changed: 'Visita annullata o mancata',
  visit_reassigned: 'Visita di un altro rilevatore',
};
export const CONFLICT_RESOLUTIONS = ['accepted', 'discarded'] as const;
export type ConflictResolution = (typeof CONFLICT_RESOLUTIONS)[number];
export const CONFLICT_STATES = ['open', 'resolved'] as const;
export const CONFLICT_STATE_LABELS: Record<(typeof CONFLICT_STATES)[number], string> = {
  open: 'Da risolvere',
  resolved: 'Risolti',
};

export const CONFLICT_MESSAGES = {
  notFound: 'Conflitto non trovato.',
  resolved: 'Questo conflitto è già stato risolto.',
  decision: 'Scegli se accettare il resoconto del dispositivo o scartarlo.',
  noteRequired: 'Scrivi perché scarti il resoconto: la nota resta nel registro.',
  alreadyReported:
    'La visita ha già un resoconto: scarta questa versione, oppure chiedi una correzione dalla revisione.',
  teacherNotOfSite:
    'Tra gli insegnanti indicati nel resoconto c’è chi non è più di questo plesso: scarta la versione con una nota.',
  notYetHeld: 'La visita non è ancora avvenuta: il resoconto non si può accettare.',
} as const;

const isoDateTime = z.string();

export const VisitReportConflictSchema = z.object({
  clientReportId: z.string(),
  code: z.enum(CONFLICT_CODES),
  /** The device's version. */
  detector: PersonNameSchema,
  report: z.string(),
  teachersMet: z.array(PersonNameSchema),
  /** The visit's state when the report arrived. */
  visitState: z.enum(VISIT_STATES),
  submittedAt: isoDateTime,
  /** The staff member who imported it from an exported file (null: the device sent it). */
  importedBy: PersonNameSchema.nullable(),
  /** The visit as it is now. */
  visit: z.object({
    id: z.number().int(),
    site: z.object({ id: z.number().int(), name: z.string(), ministryCode: z.string() }),
    detector: PersonNameSchema,
    scheduledAt: isoDateTime,
    state: z.enum(VISIT_STATES),
    outcomeNote: z.string().nullable(),
    report: z.string().nullable(),
    reviewState: z.enum(REVIEW_STATES).nullable(),
  }),
  resolution: z
    .object({
      decision: z.enum(CONFLICT_RESOLUTIONS),
      note: z.string().nullable(),
      by: PersonNameSchema,
      at: isoDateTime,
    })
    .nullable(),
});
export type VisitReportConflict = z.infer<typeof VisitReportConflictSchema>;

export const CONFLICT_SORTS = ['submittedAt'] as const;
const VisitReportConflictFiltersSchema = z.object({
  /** The plesso's name or code, or the detector's name. */
  q: SearchTextSchema,
  state: z.preprocess(
    (v) => (v === '' || v === undefined ? 'open' : v),
    z.enum([...CONFLICT_STATES, 'all'], { error: 'Valore non valido per «Stato».' }),
  ),
  code: optionalEnum(CONFLICT_CODES, 'Motivo'),
  detectorId: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'Rilevatore non valido.' })
      .int('Rilevatore non valido.')
      .positive('Rilevatore non valido.')
      .max(Number.MAX_SAFE_INTEGER, 'Rilevatore non valido.')
      .optional(),
  ),
  sort: sortSchema(CONFLICT_SORTS),
});
export const VisitReportConflictQuerySchema = VisitReportConflictFiltersSchema.extend(PaginationSchema.shape);
export type VisitReportConflictQuery = z.output<typeof VisitReportConflictQuerySchema>;
/** A page of the kept conflicts (every list is paginated on the server). */
export const VisitReportConflictListSchema = listResponseSchema(VisitReportConflictSchema);

export const ConflictResolutionSchema = z
  .object({
    decision: z.enum(['accept', 'discard'], { error: CONFLICT_MESSAGES.decision }),
    note: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v),
      z
        .string()
        .max(VISIT_NOTE_MAX, `La nota può contenere al massimo ${VISIT_NOTE_MAX} caratteri.`)
        .optional(),
    ),
  })
  .strict()
  .refine((b) => b.decision !== 'discard' || b.note !== undefined, {
    message: CONFLICT_MESSAGES.noteRequired,
    path: ['note'],
  });
export type ConflictResolutionBody = z.output<typeof ConflictResolutionSchema>;

/** Staff who manage detectors read the conflicts ("Conflitti da risolvere"), newest first by default. */
export const listVisitReportConflicts = defineEndpoint({
  method: 'GET',
  path: '/api/visit-report-conflicts',
  permission: 'read:detector',
  tag: 'field-work',
  summary:
    'I resoconti arrivati per visite cambiate nel frattempo (annullate, mancate, di un altro rilevatore): la versione del dispositivo accanto alla visita com’è ora; filtri, ordinamento, pagine',
  query: VisitReportConflictQuerySchema,
  response: VisitReportConflictListSchema,
});

/** The same conflicts, filtered and sorted as on screen, as CSV or XLSX. */
export const exportVisitReportConflicts = defineEndpoint({
  method: 'GET',
  path: '/api/visit-report-conflicts/export',
  permission: 'export:detector',
  tag: 'field-work',
  summary: 'Esporta i conflitti dei resoconti filtrati (CSV o XLSX)',
  query: VisitReportConflictFiltersSchema.extend(ExportFormatSchema.shape),
  response: z.string(),
  download: true,
});

export const resolveVisitReportConflict = defineEndpoint({
  method: 'POST',
  path: '/api/visit-report-conflicts/:clientReportId/resolution',
  permission: 'manage:detector',
  tag: 'field-work',
  summary:
    'Risolve un conflitto: accetta il resoconto del dispositivo sulla visita (che va in revisione) o lo scarta con una nota',
  params: z.object({ clientReportId: z.uuid({ error: CONFLICT_MESSAGES.notFound }) }),
  body: ConflictResolutionSchema,
  response: VisitReportConflictSchema,
  errors: [409],
});
