import { z } from 'zod';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from '../validation/index.ts';
import {
  listResponseSchema,
  PaginationSchema,
  QueryBooleanSchema,
  optionalEnum,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { romeLocalToDate } from './rome-time.ts';

export const BOOKING_STATES = ['confermata', 'annullata'] as const;
export type BookingState = (typeof BOOKING_STATES)[number];
export const BOOKING_STATE_LABELS: Record<BookingState, string> = {
  confermata: 'Confermata',
  annullata: 'Annullata',
};

/** The Italian texts of the booking flow (API messages and the web's). */
export const BOOKING_MESSAGES = {
  name: 'Inserisci nome e cognome (da 2 a 100 caratteri).',
  email: 'Inserisci un indirizzo e-mail valido.',
  institute: "Il nome dell'istituto può contenere al massimo 200 caratteri.",
  privacy: "Per prenotare devi dichiarare di aver letto l'informativa sulla privacy.",
  slot: "Scegli l'appuntamento da prenotare.",
  slotNotFound: "L'appuntamento scelto non esiste, non è più prenotabile oppure è già iniziato.",
  full: "Non ci sono più posti liberi per questo appuntamento: è al completo. Scegli un'altra data.",
  duplicate: 'Con questo indirizzo e-mail hai già una prenotazione confermata per questo appuntamento.',
  confirmed:
    'Prenotazione confermata. Ti abbiamo inviato una e-mail con i dettagli, il promemoria per il calendario e il collegamento per annullarla.',
  cancelled:
    'La prenotazione è stata annullata e il posto è di nuovo disponibile. Grazie per avercelo fatto sapere.',
  tokenNotFound:
    'Prenotazione non trovata: il collegamento non è valido oppure la prenotazione è già stata annullata.',
  rateLimited: 'Hai inviato troppe prenotazioni in poco tempo. Riprova tra qualche minuto.',
  slotNotFoundStaff: 'Appuntamento non trovato.',
  capacityBelowBooked: (booked: number) =>
    `Ci sono già ${booked} prenotazioni confermate: i posti non possono essere meno di ${booked}.`,
} as const;

/** An upcoming published slot as the public sees it. */
export const PublicSlotSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  place: z.string().nullable(),
  onlineUrl: z.string().nullable(),
  capacity: z.number().int(),
  freePlaces: z.number().int(),
});
export type PublicSlot = z.infer<typeof PublicSlotSchema>;
export const PublicSlotListSchema = z.object({ items: z.array(PublicSlotSchema) });

const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v === null ? undefined : v),
    z.string({ error: message }).max(max, message).optional(),
  );

/** The public booking form. */
export const BookingInputSchema = z.object({
  slotId: z.coerce
    .number({ error: BOOKING_MESSAGES.slot })
    .int(BOOKING_MESSAGES.slot)
    .positive(BOOKING_MESSAGES.slot)
    .max(Number.MAX_SAFE_INTEGER, BOOKING_MESSAGES.slot),
  name: z
    .string({ error: BOOKING_MESSAGES.name })
    .trim()
    .min(2, BOOKING_MESSAGES.name)
    .max(100, BOOKING_MESSAGES.name)
    .refine(isPlainName, PERSON_NAME_CONTROL_MESSAGE),
  email: z
    .string({ error: BOOKING_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(254, BOOKING_MESSAGES.email)
    .email(BOOKING_MESSAGES.email),
  institute: optionalText(200, BOOKING_MESSAGES.institute),
  privacyAccepted: z.literal(true, { error: BOOKING_MESSAGES.privacy }),
});
export type BookingInput = z.input<typeof BookingInputSchema>;

export const BookingCreatedSchema = z.object({ message: z.string(), slot: PublicSlotSchema });

/** The cancel token from the e-mail; its shape is checked by the handler (any bad token is the same 404). */
export const CancelTokenParamsSchema = z.object({ cancelToken: z.string().max(200) });

/** What the cancellation page shows before asking for confirmation. */
export const BookingByTokenSchema = z.object({
  name: z.string(),
  state: z.enum(BOOKING_STATES),
  slot: PublicSlotSchema,
});
export const BookingCancelledSchema = z.object({ message: z.string() });

// ---- Staff ----

export const SlotSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  place: z.string().nullable(),
  onlineUrl: z.string().nullable(),
  capacity: z.number().int(),
  booked: z.number().int(),
  published: z.boolean(),
  updatedAt: z.string(),
});
export type SlotSummary = z.infer<typeof SlotSummarySchema>;

export const SLOT_PERIODS = ['upcoming', 'past'] as const;
export const SLOT_PERIOD_LABELS: Record<(typeof SLOT_PERIODS)[number], string> = {
  upcoming: 'Da svolgere',
  past: 'Passati',
};
export const SLOT_SORTS = ['startsAt', 'title', 'capacity', 'booked'] as const;
export const SlotFiltersSchema = z.object({
  q: SearchTextSchema,
  period: optionalEnum(SLOT_PERIODS, 'Periodo'),
  published: QueryBooleanSchema,
  sort: sortSchema(SLOT_SORTS),
});
export const SlotListQuerySchema = SlotFiltersSchema.extend(PaginationSchema.shape);
export type SlotListQuery = z.output<typeof SlotListQuerySchema>;
export const SlotListResponseSchema = listResponseSchema(SlotSummarySchema);

export const SLOT_MESSAGES = {
  title: 'Inserisci un titolo da 3 a 200 caratteri.',
  description: 'La descrizione può contenere al massimo 2000 caratteri.',
  startsAt: 'Inserisci data e ora di inizio (ora italiana).',
  endsAt: 'Inserisci data e ora di fine (ora italiana).',
  endsBeforeStart: "La fine deve essere dopo l'inizio.",
  place: 'Indica il luogo (fino a 300 caratteri) oppure il collegamento online.',
  onlineUrl: 'Inserisci un collegamento che inizia con https:// (al massimo 500 caratteri).',
  capacity: 'Indica quanti posti ci sono: un numero intero da 1 a 10000.',
} as const;

const romeLocal = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => romeLocalToDate(v) !== undefined, message);

const slotFields = {
  title: z
    .string({ error: SLOT_MESSAGES.title })
    .trim()
    .min(3, SLOT_MESSAGES.title)
    .max(200, SLOT_MESSAGES.title),
  description: z.string({ error: SLOT_MESSAGES.description }).trim().max(2000, SLOT_MESSAGES.description),
  /** Wall-clock time in Europe/Rome, `YYYY-MM-DDTHH:mm`. */
  startsAt: romeLocal(SLOT_MESSAGES.startsAt),
  endsAt: romeLocal(SLOT_MESSAGES.endsAt),
  place: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v),
    z.string({ error: SLOT_MESSAGES.place }).max(300, SLOT_MESSAGES.place).nullable(),
  ),
  onlineUrl: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || null : v),
    z
      .string({ error: SLOT_MESSAGES.onlineUrl })
      .max(500, SLOT_MESSAGES.onlineUrl)
      .regex(/^https:\/\/[^\s]+$/, SLOT_MESSAGES.onlineUrl)
      .nullable(),
  ),
  capacity: z.coerce
    .number({ error: SLOT_MESSAGES.capacity })
    .int(SLOT_MESSAGES.capacity)
    .min(1, SLOT_MESSAGES.capacity)
    .max(10_000, SLOT_MESSAGES.capacity),
  published: z.boolean({ error: 'Indica se pubblicare l’appuntamento.' }),
};

/** The cross-field rules of a slot (also checked by the API on a partial update, against the stored values). */
export function slotRuleErrors(slot: {
  startsAt: string;
  endsAt: string;
  place: string | null;
  onlineUrl: string | null;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const start = romeLocalToDate(slot.startsAt);
  const end = romeLocalToDate(slot.endsAt);
  if (start && end && end <= start) errors.endsAt = [SLOT_MESSAGES.endsBeforeStart];
  if (!slot.place && !slot.onlineUrl) errors.place = [SLOT_MESSAGES.place];
  return errors;
}

export const SlotInputSchema = z
  .object({
    ...slotFields,
    description: slotFields.description.default(''),
    place: slotFields.place.default(null),
    onlineUrl: slotFields.onlineUrl.default(null),
    published: slotFields.published.default(false),
  })
  .strict()
  .superRefine((slot, ctx) => {
    for (const [path, messages] of Object.entries(slotRuleErrors(slot)))
      for (const message of messages) ctx.addIssue({ code: 'custom', path: [path], message });
  });
export type SlotInput = z.input<typeof SlotInputSchema>;

export const SlotUpdateSchema = z
  .object({
    title: slotFields.title.optional(),
    description: slotFields.description.optional(),
    startsAt: slotFields.startsAt.optional(),
    endsAt: slotFields.endsAt.optional(),
    place: slotFields.place.optional(),
    onlineUrl: slotFields.onlineUrl.optional(),
    capacity: slotFields.capacity.optional(),
    published: slotFields.published.optional(),
  })
  .strict();
export type SlotUpdate = z.output<typeof SlotUpdateSchema>;

export const BookingSummarySchema = z.object({
  id: z.number().int(),
  slotId: z.number().int(),
  name: z.string(),
  email: z.string(),
  institute: z.string().nullable(),
  state: z.enum(BOOKING_STATES),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
});
export type BookingSummary = z.infer<typeof BookingSummarySchema>;

export const BOOKING_SORTS = ['createdAt', 'name', 'email', 'state'] as const;
export const BookingFiltersSchema = z.object({
  q: SearchTextSchema,
  state: optionalEnum(BOOKING_STATES, 'Stato'),
  sort: sortSchema(BOOKING_SORTS),
});
export const BookingListQuerySchema = BookingFiltersSchema.extend(PaginationSchema.shape);
export type BookingListQuery = z.output<typeof BookingListQuerySchema>;
export const BookingListResponseSchema = listResponseSchema(BookingSummarySchema);
