import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { ADHESION_STATES, PROVINCES, REGIONS } from '../registry/registry.constants.ts';
import { InstituteSummarySchema, PersonRefSchema } from '../registry/institutes.schemas.ts';

/** States an institute can be reminded about: it is the school's turn to act (sign, or fix and sign again). */
export const REMINDER_STATES = ['iscritto', 'da_correggere'] as const;
export type ReminderState = (typeof REMINDER_STATES)[number];

/** The longest "days in state" filter: ten years. */
export const MAX_DAYS_IN_STATE = 3650;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** `minDaysInState`: only institutes in their current state for at least this many days. */
export const DaysInStateSchema = z.preprocess(
  emptyToUndefined,
  z.coerce
    .number({ error: 'Indica un numero di giorni.' })
    .int('Indica un numero intero di giorni.')
    .min(1, 'Indica almeno 1 giorno.')
    .max(MAX_DAYS_IN_STATE, `Indica al massimo ${MAX_DAYS_IN_STATE} giorni.`)
    .optional(),
);

export const ADHESION_PANEL_SORTS = [
  'name',
  'ministryCode',
  'province',
  'region',
  'adhesionState',
  'adhesionStateChangedAt',
] as const;

/** The funnel's filters: where, and for how long in the state. */
export const AdhesionFunnelQuerySchema = z.object({
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  minDaysInState: DaysInStateSchema,
});
export type AdhesionFunnelQuery = z.output<typeof AdhesionFunnelQuerySchema>;

/** The filters of the panel's list, its export and its reminders (the same set everywhere). */
export const AdhesionPanelFiltersSchema = AdhesionFunnelQuerySchema.extend({
  q: SearchTextSchema,
  adhesionState: optionalEnum(ADHESION_STATES, 'Stato di adesione'),
  sort: sortSchema(ADHESION_PANEL_SORTS),
});
export type AdhesionPanelFilters = z.output<typeof AdhesionPanelFiltersSchema>;
export const AdhesionPanelQuerySchema = AdhesionPanelFiltersSchema.extend(PaginationSchema.shape);
export type AdhesionPanelQuery = z.output<typeof AdhesionPanelQuerySchema>;

export const AdhesionFunnelSchema = z.object({
  /** Every state with its count, in the order of the state machine. */
  states: z.array(z.object({ state: z.enum(ADHESION_STATES), count: z.number().int().nonnegative() })),
  /** Institutes of the registry matching the filters, enrolled or not. */
  total: z.number().int().nonnegative(),
});
export type AdhesionFunnel = z.infer<typeof AdhesionFunnelSchema>;

export const AdhesionPanelRowSchema = InstituteSummarySchema.extend({
  principal: PersonRefSchema.nullable(),
  firstContact: PersonRefSchema.nullable(),
  /** The Europe/Rome day of the last reminder (YYYY-MM-DD). */
  lastReminderOn: z.string().nullable(),
});
export type AdhesionPanelRow = z.infer<typeof AdhesionPanelRowSchema>;
export const AdhesionPanelListSchema = listResponseSchema(AdhesionPanelRowSchema);

/** Reminders go to one stuck state at a time: the state is required and must be a reminder state. */
export const ReminderFiltersSchema = AdhesionPanelFiltersSchema.omit({
  sort: true,
  adhesionState: true,
}).extend({
  adhesionState: z.enum(REMINDER_STATES, {
    error: 'Scegli lo stato degli istituti da sollecitare: «Iscritto» o «Da correggere».',
  }),
});
export type ReminderFilters = z.output<typeof ReminderFiltersSchema>;

export const ReminderPreviewSchema = z.object({
  /** Institutes that would receive the reminder now. */
  eligible: z.number().int().nonnegative(),
  /** Already reminded today (Europe/Rome): skipped. */
  remindedToday: z.number().int().nonnegative(),
  /** No principal or first contact to write to: skipped. */
  withoutContacts: z.number().int().nonnegative(),
});
export type ReminderPreview = z.infer<typeof ReminderPreviewSchema>;

export const ReminderResultSchema = z.object({
  /** Institutes reminded by this request. */
  institutes: z.number().int().nonnegative(),
  /** E-mails written to the outbox. */
  messages: z.number().int().nonnegative(),
  remindedToday: z.number().int().nonnegative(),
  withoutContacts: z.number().int().nonnegative(),
});
export type ReminderResult = z.infer<typeof ReminderResultSchema>;

export const WithdrawalBodySchema = z.object({
  reason: z
    .string({ error: 'Indica il motivo del ritiro.' })
    .trim()
    .min(10, 'Descrivi il motivo del ritiro in almeno 10 caratteri.')
    .max(2000, 'Il motivo può contenere al massimo 2000 caratteri.'),
});
export type WithdrawalBody = z.output<typeof WithdrawalBodySchema>;
export const WithdrawalResultSchema = z.object({ adhesionState: z.enum(ADHESION_STATES) });
