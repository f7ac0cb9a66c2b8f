import { z } from 'zod';
import { ExportFormatSchema, optionalEnum } from '../lists/list-query.ts';
import { REGIONS } from '../registry/registry.constants.ts';

/** How the figures are grouped: per week (a time series), per region, per adhesion state. */
export const PROGRESS_GROUPS = ['week', 'region', 'state'] as const;
export type ProgressGroup = (typeof PROGRESS_GROUPS)[number];
export const PROGRESS_GROUP_LABELS: Record<ProgressGroup, string> = {
  week: 'Per settimana',
  region: 'Per regione',
  state: 'Per stato di adesione',
};

/**
 * The programme's figures, each computed from dated records (never from counters):
 * - institutes enrolled, signed, active, withdrawn: `institute_adhesion_transitions` into
 *   `iscritto`, `adesione_firmata`, `attivo`, `ritirato`;
 * - participating plessi: plessi that participate, dated by their institute's enrolment (its first
 *   transition into `iscritto`);
 * - teachers registered: teacher profiles by creation; approved: `insegnanti` reviews decided
 *   `approvata`;
 * - visits done: visits `svolta`, dated by their report (the plesso's region);
 * - survey responses: responses by submission (the region of the respondent's plesso).
 */
export const PROGRESS_METRICS = [
  'institutesEnrolled',
  'institutesSigned',
  'institutesActive',
  'institutesWithdrawn',
  'participatingSites',
  'teachersRegistered',
  'teachersApproved',
  'visitsDone',
  'surveyResponses',
] as const;
export type ProgressMetric = (typeof PROGRESS_METRICS)[number];
export const PROGRESS_METRIC_LABELS: Record<ProgressMetric, string> = {
  institutesEnrolled: 'Istituti iscritti',
  institutesSigned: 'Adesioni firmate',
  institutesActive: 'Istituti attivati',
  institutesWithdrawn: 'Istituti ritirati',
  participatingSites: 'Plessi partecipanti',
  teachersRegistered: 'Insegnanti registrati',
  teachersApproved: 'Insegnanti approvati',
  visitsDone: 'Visite svolte',
  surveyResponses: 'Risposte ai questionari',
};

/** The figures per adhesion state (as of the period's end): institutes, their plessi, the participating ones. */
export const STATE_METRICS = ['institutes', 'schoolSites', 'participatingSites'] as const;
export type StateMetric = (typeof STATE_METRICS)[number];
export const STATE_METRIC_LABELS: Record<StateMetric, string> = {
  institutes: 'Istituti',
  schoolSites: 'Plessi',
  participatingSites: 'Plessi partecipanti',
};

/** The longest period one request may ask (about three years of weeks). */
export const MAX_PROGRESS_DAYS = 1100;
/** Without `from`, the period starts this many days before its end (26 weeks). */
export const DEFAULT_PROGRESS_DAYS = 182;

const optionalDate = (label: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: `Data non valida per «${label}».` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `Data non valida per «${label}»: usa il formato AAAA-MM-GG.`)
      .refine(
        (v) =>
          !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
          new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
        `Data non valida per «${label}».`,
      )
      .optional(),
  );

const dayDiff = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** `from`/`to` are days (Europe/Rome, both included); the server fills what is missing. */
export const ProgressFiltersSchema = z
  .object({
    from: optionalDate('Dal'),
    to: optionalDate('Al'),
    region: optionalEnum(REGIONS, 'Regione'),
    groupBy: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .enum(PROGRESS_GROUPS, { error: 'Raggruppamento non valido: usa week, region o state.' })
        .default('week'),
    ),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && dayDiff(q.from, q.to) < 0)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'La data finale deve seguire quella iniziale.' });
    else if (q.from && q.to && dayDiff(q.from, q.to) > MAX_PROGRESS_DAYS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'Il periodo può durare al massimo tre anni.' });
  });
export type ProgressFilters = z.output<typeof ProgressFiltersSchema>;
export const PROGRESS_FILTER_KEYS = ['from', 'to', 'region', 'groupBy'] as const;

export const ProgressExportQuerySchema = z
  .object({ ...ProgressFiltersSchema.shape, ...ExportFormatSchema.shape })
  .superRefine((q, ctx) => {
    if (q.from && q.to && dayDiff(q.from, q.to) < 0)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'La data finale deve seguire quella iniziale.' });
    else if (q.from && q.to && dayDiff(q.from, q.to) > MAX_PROGRESS_DAYS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'Il periodo può durare al massimo tre anni.' });
  });

const counts = z.record(z.string(), z.number().int());

/**
 * The figures grouped one way: `columns` names the figures (metric keys and Italian labels), each row
 * a week, a region or a state with its values. Per week, `values` are the events of that week and
 * `cumulative` the running totals since the programme began (events before `from` included).
 */
export const ProgressResponseSchema = z.object({
  groupBy: z.enum(PROGRESS_GROUPS),
  from: z.string(),
  to: z.string(),
  region: z.enum(REGIONS).nullable(),
  columns: z.array(z.object({ key: z.string(), label: z.string() })),
  rows: z.array(
    z.object({ key: z.string(), label: z.string(), values: counts, cumulative: counts.optional() }),
  ),
  /** Sums of the rows (per week: the events of the period; per state: every institute). */
  totals: counts,
  /** How some figures are dated (said beside the charts). */
  notes: z.array(z.string()),
});
export type ProgressResponse = z.infer<typeof ProgressResponseSchema>;
