import { z } from 'zod';
import { romeLocalToDate, romeParts } from '../bookings/rome-time.ts';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  QueryBooleanSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { PROVINCES, REGIONS, SCHOOL_LEVELS } from '../registry/registry.constants.ts';
import { REVIEW_FIELDS, REVIEW_STATES } from '../vocabulary/review.constants.ts';
import { BULK_ASSIGN_MAX, VISIT_NOTE_MAX, VISIT_REPORT_MAX, VISIT_STATES } from './field-work.constants.ts';

const isoDateTime = z.string();
const optionalId = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: `${label} non valido.` })
      .int()
      .positive()
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
  );

// --- Detectors (staff: /portale/rilevatori) ---

export const DetectorSummarySchema = z.object({
  /** The detector's user id. */
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  provinces: z.array(z.string()),
  active: z.boolean(),
  siteCount: z.number().int(),
  nextVisitAt: isoDateTime.nullable(),
  /** Reports not yet on the server on the detector's devices, as the devices last said (issue 39). */
  unsentReports: z.number().int(),
  /** When the oldest of them was written; null when none. */
  oldestUnsentAt: isoDateTime.nullable(),
  /** The last time one of the detector's devices reported its queue; null when never. */
  queueReportedAt: isoDateTime.nullable(),
});
export type DetectorSummary = z.infer<typeof DetectorSummarySchema>;

export const DETECTOR_SORTS = ['name', 'siteCount', 'email'] as const;
export const DetectorFiltersSchema = z.object({
  q: SearchTextSchema,
  province: optionalEnum(PROVINCES, 'Provincia'),
  active: QueryBooleanSchema,
  sort: sortSchema(DETECTOR_SORTS),
});
export const DetectorListQuerySchema = DetectorFiltersSchema.extend(PaginationSchema.shape);
export type DetectorListQuery = z.output<typeof DetectorListQuerySchema>;
export type DetectorFilters = z.output<typeof DetectorFiltersSchema>;
export const DetectorListResponseSchema = listResponseSchema(DetectorSummarySchema);

export const DetectorUpdateSchema = z
  .object({
    provinces: z
      .array(z.enum(PROVINCES, { error: 'Provincia non valida.' }), { error: 'Indica le province.' })
      .max(PROVINCES.length, 'Troppe province.')
      .optional(),
    active: z.boolean({ error: 'Indica se il rilevatore è attivo.' }).optional(),
  })
  .strict();
export type DetectorUpdate = z.output<typeof DetectorUpdateSchema>;

/** Which plessi a bulk assignment touches: the same filters as the plessi list, plus who holds them now. */
export const AssignmentFilterSchema = z
  .object({
    q: z.string().max(100, 'La ricerca può contenere al massimo 100 caratteri.').optional(),
    region: z.enum(REGIONS, { error: 'Regione non valida.' }).optional(),
    province: z.enum(PROVINCES, { error: 'Provincia non valida.' }).optional(),
    level: z.enum(SCHOOL_LEVELS, { error: 'Grado scolastico non valido.' }).optional(),
    participating: z.boolean({ error: 'Indica se il plesso partecipa.' }).optional(),
    /** A detector's user id (move their plessi), or `none` (plessi without a detector). */
    currentDetector: z
      .union([z.literal('none'), z.number().int().positive()], { error: 'Rilevatore attuale non valido.' })
      .optional(),
  })
  .strict()
  .refine(
    (f) =>
      f.region !== undefined ||
      f.province !== undefined ||
      f.currentDetector !== undefined ||
      (f.q ?? '').trim() !== '',
    {
      message:
        'Scegli almeno una regione, una provincia, un rilevatore attuale o una ricerca: non si assegnano tutti i plessi d’Italia in un colpo.',
      path: ['province'],
    },
  );
export type AssignmentFilter = z.output<typeof AssignmentFilterSchema>;

export const ASSIGNMENT_MESSAGES = {
  target: 'Indica i plessi: un elenco oppure un filtro, non entrambi.',
  countChanged:
    'Il numero dei plessi è cambiato dal conteggio che hai confermato: controlla di nuovo prima di procedere.',
  notDetector: 'L’utente scelto non è un rilevatore.',
  tooMany: `Al massimo ${BULK_ASSIGN_MAX.toLocaleString('it-IT')} plessi per volta: restringi il filtro.`,
} as const;

/**
 * Assign plessi to a detector (or take them away: `detectorUserId: null`). `confirm: false` only counts;
 * `confirm: true` applies, and refuses (409) when the count is no longer `expectedCount`. Idempotent: a
 * plesso that already has this detector is left as it is.
 */
export const AssignmentBodySchema = z
  .object({
    detectorUserId: z.number({ error: 'Scegli il rilevatore.' }).int().positive().nullable(),
    siteIds: z
      .array(z.number().int().positive(), { error: 'Elenco di plessi non valido.' })
      .min(1, 'Scegli almeno un plesso.')
      .max(BULK_ASSIGN_MAX, ASSIGNMENT_MESSAGES.tooMany)
      .optional(),
    filter: AssignmentFilterSchema.optional(),
    confirm: z.boolean({ error: 'Indica se confermare.' }),
    expectedCount: z.number().int().nonnegative().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.siteIds === undefined) === (body.filter === undefined))
      ctx.addIssue({ code: 'custom', path: ['siteIds'], message: ASSIGNMENT_MESSAGES.target });
  });
export type AssignmentBody = z.output<typeof AssignmentBodySchema>;

export const AssignmentResultSchema = z.object({
  /** Plessi the request names. */
  matched: z.number().int(),
  /** Already with this detector: left unchanged. */
  unchanged: z.number().int(),
  /** Taken from another detector. */
  moved: z.number().int(),
  /** Without a detector until now. */
  added: z.number().int(),
  /**
   * Planned visits of these plessi that pass to the new detector with them (decision 061); removing the
   * detector moves none.
   */
  visitsMoved: z.number().int(),
  /** Rows written (0 when only counting). */
  updated: z.number().int(),
  applied: z.boolean(),
});
export type AssignmentResult = z.infer<typeof AssignmentResultSchema>;

// --- A detector's plessi ---

export const PersonNameSchema = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
});

export const DetectorSiteSummarySchema = z.object({
  id: z.number().int(),
  ministryCode: z.string(),
  name: z.string(),
  schoolLevel: z.enum(SCHOOL_LEVELS),
  address: z.string().nullable(),
  postalCode: z.string().nullable(),
  municipalityName: z.string(),
  province: z.string(),
  region: z.string(),
  instituteName: z.string(),
  participating: z.boolean(),
  detector: PersonNameSchema.nullable(),
  teacherCount: z.number().int(),
  nextVisitAt: isoDateTime.nullable(),
});
export type DetectorSiteSummary = z.infer<typeof DetectorSiteSummarySchema>;

export const DETECTOR_SITE_SORTS = [
  'name',
  'municipalityName',
  'province',
  'nextVisitAt',
  'teacherCount',
] as const;
export const DetectorSiteFiltersSchema = z.object({
  q: SearchTextSchema,
  province: optionalEnum(PROVINCES, 'Provincia'),
  level: optionalEnum(SCHOOL_LEVELS, 'Grado scolastico'),
  plannedVisit: QueryBooleanSchema,
  /** Staff only (`read:school-site:any`): one detector's plessi; a detector always sees their own. */
  detectorId: optionalId('Rilevatore'),
  sort: sortSchema(DETECTOR_SITE_SORTS),
});
export const DetectorSiteListQuerySchema = DetectorSiteFiltersSchema.extend(PaginationSchema.shape);
export type DetectorSiteListQuery = z.output<typeof DetectorSiteListQuerySchema>;
export type DetectorSiteFilters = z.output<typeof DetectorSiteFiltersSchema>;
export const DetectorSiteListResponseSchema = listResponseSchema(DetectorSiteSummarySchema);

// --- Visits ---

export const VisitSchema = z.object({
  id: z.number().int(),
  schoolSiteId: z.number().int(),
  siteName: z.string(),
  siteCode: z.string(),
  detector: PersonNameSchema,
  scheduledAt: isoDateTime,
  endsAt: isoDateTime,
  state: z.enum(VISIT_STATES),
  report: z.string().nullable(),
  teachersMet: z.array(PersonNameSchema),
  outcomeNote: z.string().nullable(),
  reviewState: z.enum(REVIEW_STATES).nullable(),
  reviewNote: z.string().nullable(),
  /** The fields the reviewer flagged with the note (empty when none). */
  reviewFields: z.array(z.enum(REVIEW_FIELDS)),
  reportedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});
export type Visit = z.infer<typeof VisitSchema>;

export const SiteTeacherSchema = z.object({
  userId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  kind: z.string(),
  subjects: z.array(z.string()),
  reviewState: z.enum(REVIEW_STATES),
});
export type SiteTeacher = z.infer<typeof SiteTeacherSchema>;

export const DetectorSiteDetailSchema = DetectorSiteSummarySchema.extend({
  instituteId: z.number().int(),
  instituteCode: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  visits: z.array(VisitSchema),
  teachers: z.array(SiteTeacherSchema),
});
export type DetectorSiteDetail = z.infer<typeof DetectorSiteDetailSchema>;

export const VISIT_MESSAGES = {
  scheduledAt: 'Inserisci data e ora della visita (ora italiana).',
  future: 'La visita deve essere pianificata nel futuro.',
  noDetector: 'Il plesso non ha un rilevatore assegnato: assegnalo prima di pianificare una visita.',
  report: 'Scrivi il resoconto della visita.',
  teacherNotOfSite: 'Tra gli insegnanti incontrati c’è chi non è di questo plesso.',
  notPlanned: 'La visita non è più pianificata: il suo stato non può cambiare così.',
  notReportable: 'Il resoconto si può inviare solo per una visita pianificata o rimandata per correzioni.',
  notYetHappened:
    'La visita non è ancora avvenuta: il resoconto si può inviare dal giorno della visita in poi.',
  notFound: 'Visita non trovata.',
  clientReportId: 'Identificativo della bozza non valido: deve essere un UUID.',
  clientReportIdReused:
    'Questa bozza è già stata inviata con un contenuto diverso: esportala e contatta lo staff, non verrà sovrascritta.',
  visitChanged:
    'La visita è stata annullata o segnata come mancata mentre compilavi il resoconto: la tua versione è stata conservata e lo staff deciderà.',
  visitReassigned:
    'La visita è stata assegnata a un altro rilevatore mentre il resoconto era sul dispositivo: la versione è stata conservata e lo staff deciderà.',
  reassignedNotKept:
    'La visita è stata assegnata a un altro rilevatore: il resoconto non è stato registrato. Chiedi allo staff.',
} as const;

export const VisitCreateSchema = z
  .object({
    scheduledAt: z
      .string({ error: VISIT_MESSAGES.scheduledAt })
      .refine((v) => romeLocalToDate(v) !== undefined, VISIT_MESSAGES.scheduledAt),
  })
  .strict();
export type VisitCreate = z.output<typeof VisitCreateSchema>;

export const VisitReportSchema = z
  .object({
    report: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() : v),
      z
        .string({ error: VISIT_MESSAGES.report })
        .min(10, 'Il resoconto deve avere almeno 10 caratteri.')
        .max(VISIT_REPORT_MAX, `Il resoconto può contenere al massimo ${VISIT_REPORT_MAX} caratteri.`),
    ),
    teachersMet: z
      .array(z.number().int().positive(), { error: 'Elenco di insegnanti non valido.' })
      .max(500)
      .default([]),
    /**
     * Chosen by the browser when the draft is created (issue 39): a replay of the same submission answers
     * the stored result, never a second report; a different payload under the same id is refused (409).
     */
    clientReportId: z.uuid({ error: VISIT_MESSAGES.clientReportId }).optional(),
  })
  .strict();
export type VisitReport = z.output<typeof VisitReportSchema>;

export const VisitOutcomeSchema = z
  .object({
    state: z.enum(['annullata', 'mancata'], { error: 'Scegli se la visita è annullata o mancata.' }),
    note: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v),
      z
        .string()
        .max(VISIT_NOTE_MAX, `La nota può contenere al massimo ${VISIT_NOTE_MAX} caratteri.`)
        .optional(),
    ),
  })
  .strict();
export type VisitOutcome = z.output<typeof VisitOutcomeSchema>;

export const SiteVisitsResponseSchema = z.object({
  site: DetectorSiteSummarySchema,
  teachers: z.array(SiteTeacherSchema),
  items: z.array(VisitSchema),
});
export type SiteVisitsResponse = z.infer<typeof SiteVisitsResponseSchema>;

export const SiteTeachersResponseSchema = z.object({
  site: DetectorSiteSummarySchema,
  items: z.array(SiteTeacherSchema),
});
export type SiteTeachersResponse = z.infer<typeof SiteTeachersResponseSchema>;

/** The detector's home: the next planned visits and the reports sent back for correction. */
export const MyVisitsResponseSchema = z.object({
  upcoming: z.array(VisitSchema),
  toReport: z.array(VisitSchema),
  toFix: z.array(VisitSchema),
  siteCount: z.number().int(),
});
export type MyVisitsResponse = z.infer<typeof MyVisitsResponseSchema>;

/** The Rome calendar day of an instant as `YYYY-MM-DD` (comparable as a string). */
function romeDay(instant: Date | string): string {
  const p = romeParts(new Date(instant));
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** A visit can be reported as held from its scheduled day on (Rome calendar), never before. */
export function visitReportable(scheduledAt: Date | string, now: Date): boolean {
  return romeDay(scheduledAt) <= romeDay(now);
}

// --- The detector's device queue (issue 39: staff see "N report non inviati da X giorni") ---

export const DEVICE_QUEUE_MESSAGES = {
  deviceId: 'Identificativo del dispositivo non valido.',
  unsent: 'Numero di resoconti non inviati non valido.',
  oldestUnsentAt: 'Indica quando è stato scritto il resoconto non inviato più vecchio.',
  notYours: 'Puoi comunicare solo lo stato dei tuoi resoconti.',
} as const;

/** What a detector's browser says about its unsent reports when it is online (one record per device). */
export const DeviceQueueReportSchema = z
  .object({
    deviceId: z.uuid({ error: DEVICE_QUEUE_MESSAGES.deviceId }),
    unsent: z
      .number({ error: DEVICE_QUEUE_MESSAGES.unsent })
      .int({ error: DEVICE_QUEUE_MESSAGES.unsent })
      .min(0, { error: DEVICE_QUEUE_MESSAGES.unsent })
      .max(10_000, { error: DEVICE_QUEUE_MESSAGES.unsent }),
    oldestUnsentAt: z.iso.datetime({ offset: true, error: DEVICE_QUEUE_MESSAGES.oldestUnsentAt }).nullable(),
  })
  .refine((b) => b.unsent > 0 === (b.oldestUnsentAt !== null), {
    path: ['oldestUnsentAt'],
    error: DEVICE_QUEUE_MESSAGES.oldestUnsentAt,
  });
export type DeviceQueueReport = z.output<typeof DeviceQueueReportSchema>;

/** The detector's queue over all their devices, as staff see it. */
export const DeviceQueueStateSchema = z.object({
  unsentReports: z.number().int(),
  oldestUnsentAt: isoDateTime.nullable(),
  queueReportedAt: isoDateTime.nullable(),
});
export type DeviceQueueState = z.infer<typeof DeviceQueueStateSchema>;
