import { z } from 'zod';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from '../validation/index.ts';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { REGIONS } from '../registry/registry.constants.ts';
import {
  SUBSTITUTION_NOTE_MAX,
  SUBSTITUTION_REASON_MAX,
  SUBSTITUTION_STATES,
} from './substitution.constants.ts';

/** The Italian texts of substitutions (API messages and the web's). */
export const SUBSTITUTION_MESSAGES = {
  notFound: 'Sostituzione non trovata.',
  siteNotFound: 'Plesso non trovato.',
  schoolSite: 'Scegli il plesso.',
  outgoing: 'Scegli l’insegnante che lascia il plesso.',
  outgoingNotOfSite: 'L’insegnante indicato non risulta tra gli insegnanti di questo plesso.',
  incoming:
    'Indica chi subentra: l’indirizzo e-mail della persona da invitare (con nome e cognome) oppure un insegnante già registrato.',
  incomingNotFound: 'L’insegnante indicato come subentrante non risulta tra gli insegnanti dell’istituto.',
  incomingSame: 'Chi subentra deve essere una persona diversa da chi lascia il plesso.',
  incomingEmail: 'Inserisci un indirizzo e-mail valido.',
  incomingFirstName: 'Inserisci il nome di chi subentra (da 2 a 60 caratteri, senza virgole).',
  incomingLastName: 'Inserisci il cognome di chi subentra (da 2 a 60 caratteri, senza virgole).',
  reason: `Spiega il motivo della sostituzione (da 5 a ${SUBSTITUTION_REASON_MAX} caratteri).`,
  effectiveOn: 'Inserisci la data di decorrenza (gg/mm/aaaa).',
  effectiveInPast: 'La data di decorrenza non può essere nel passato.',
  openExists:
    'Per questo insegnante e questo plesso c’è già una richiesta di sostituzione in attesa di decisione.',
  decision: 'Scegli se approvare o respingere la richiesta.',
  noteRequired: 'Per respingere la richiesta scrivi una nota con il motivo: la riceverà chi l’ha inviata.',
  noteMax: `La nota può contenere al massimo ${SUBSTITUTION_NOTE_MAX} caratteri.`,
  alreadyDecided: 'La richiesta è già stata decisa: non può essere approvata o respinta di nuovo.',
  created:
    'Richiesta di sostituzione inviata: lo staff del programma la esaminerà e riceverai una e-mail con la decisione.',
  approved:
    'Sostituzione approvata: il plesso, le classi e i codici di accesso sono passati a chi subentra; abbiamo avvisato le persone coinvolte.',
  /** Approved ahead of its date: nothing moves until then (decision 038). */
  approvedFrom: (date: string) =>
    `Sostituzione approvata: dal ${date} il plesso, le classi e i codici di accesso passeranno a chi subentra; fino ad allora resta in servizio l’insegnante uscente. Abbiamo avvisato le persone coinvolte.`,
  rejected: 'Richiesta respinta: abbiamo avvisato chi l’ha inviata con la tua nota.',
} as const;

/** `YYYY-MM-DD` of `now` in Europe/Rome. */
export function romeToday(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Rome',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

function isRealDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = m.slice(1).map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, mo - 1, d));
  return check.getUTCFullYear() === y && check.getUTCMonth() === mo - 1 && check.getUTCDate() === d;
}

const blankToUndefined = (v: unknown) =>
  typeof v === 'string' ? v.trim() || undefined : v === null ? undefined : v;
const idField = (message: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: message }).int(message).positive(message).max(Number.MAX_SAFE_INTEGER, message),
  );
const personName = (message: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: message })
      .min(2, message)
      .max(60, message)
      .refine((v) => !v.includes(','), message)
      .refine(isPlainName, PERSON_NAME_CONTROL_MESSAGE)
      .optional(),
  );

/** The form of a principal or first contact asking to replace a teacher of one of their plessi. */
export const SubstitutionCreateSchema = z
  .object({
    schoolSiteId: idField(SUBSTITUTION_MESSAGES.schoolSite),
    outgoingUserId: idField(SUBSTITUTION_MESSAGES.outgoing),
    /** A teacher already registered in a plesso of the same institute. */
    incomingUserId: z.preprocess(blankToUndefined, idField(SUBSTITUTION_MESSAGES.incoming).optional()),
    /** Or an address: an existing account is linked, otherwise the person is invited on approval. */
    incomingEmail: z.preprocess(
      blankToUndefined,
      z
        .string({ error: SUBSTITUTION_MESSAGES.incomingEmail })
        .toLowerCase()
        .max(254, SUBSTITUTION_MESSAGES.incomingEmail)
        .email(SUBSTITUTION_MESSAGES.incomingEmail)
        .optional(),
    ),
    incomingFirstName: personName(SUBSTITUTION_MESSAGES.incomingFirstName),
    incomingLastName: personName(SUBSTITUTION_MESSAGES.incomingLastName),
    reason: z
      .string({ error: SUBSTITUTION_MESSAGES.reason })
      .trim()
      .min(5, SUBSTITUTION_MESSAGES.reason)
      .max(SUBSTITUTION_REASON_MAX, SUBSTITUTION_MESSAGES.reason),
    /** `YYYY-MM-DD`; not before today in Europe/Rome (checked by the API against its clock). */
    effectiveOn: z
      .string({ error: SUBSTITUTION_MESSAGES.effectiveOn })
      .trim()
      .refine(isRealDate, SUBSTITUTION_MESSAGES.effectiveOn),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.incomingUserId === undefined && body.incomingEmail === undefined) {
      ctx.addIssue({ code: 'custom', path: ['incomingEmail'], message: SUBSTITUTION_MESSAGES.incoming });
      return;
    }
    if (body.incomingUserId !== undefined && body.incomingEmail !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['incomingEmail'], message: SUBSTITUTION_MESSAGES.incoming });
      return;
    }
    if (body.incomingUserId !== undefined && body.incomingUserId === body.outgoingUserId) {
      ctx.addIssue({ code: 'custom', path: ['incomingUserId'], message: SUBSTITUTION_MESSAGES.incomingSame });
    }
    if (body.incomingEmail !== undefined) {
      if (body.incomingFirstName === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['incomingFirstName'],
          message: SUBSTITUTION_MESSAGES.incomingFirstName,
        });
      if (body.incomingLastName === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['incomingLastName'],
          message: SUBSTITUTION_MESSAGES.incomingLastName,
        });
    }
  });
export type SubstitutionCreate = z.input<typeof SubstitutionCreateSchema>;

export const SUBSTITUTION_DECISIONS = ['approvata', 'respinta'] as const;
export const SubstitutionDecisionSchema = z
  .object({
    decision: z.enum(SUBSTITUTION_DECISIONS, { error: SUBSTITUTION_MESSAGES.decision }),
    note: z.preprocess(
      blankToUndefined,
      z
        .string({ error: SUBSTITUTION_MESSAGES.noteMax })
        .max(SUBSTITUTION_NOTE_MAX, SUBSTITUTION_MESSAGES.noteMax)
        .optional(),
    ),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.decision === 'respinta' && !body.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: SUBSTITUTION_MESSAGES.noteRequired });
  });
export type SubstitutionDecision = z.input<typeof SubstitutionDecisionSchema>;

/** One substitution as lists and the detail show it. */
export const SubstitutionSummarySchema = z.object({
  id: z.number().int(),
  state: z.enum(SUBSTITUTION_STATES),
  schoolSiteId: z.number().int(),
  schoolSiteName: z.string(),
  schoolSiteCode: z.string(),
  municipalityName: z.string(),
  province: z.string(),
  region: z.string(),
  instituteId: z.number().int(),
  instituteName: z.string(),
  outgoingUserId: z.number().int(),
  outgoingName: z.string(),
  outgoingEmail: z.string(),
  /** The incoming teacher's account (null while they are only an invited address). */
  incomingUserId: z.number().int().nullable(),
  incomingName: z.string(),
  incomingEmail: z.string().nullable(),
  reason: z.string(),
  effectiveOn: z.string(),
  requestedByName: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decisionNote: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** When an approved substitution took effect (its effective date, decision 038); null before then. */
  appliedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type SubstitutionSummary = z.infer<typeof SubstitutionSummarySchema>;

export const SUBSTITUTION_SORTS = [
  'createdAt',
  'effectiveOn',
  'state',
  'outgoingName',
  'schoolSiteName',
] as const;
export const SubstitutionFiltersSchema = z.object({
  q: SearchTextSchema,
  state: optionalEnum(SUBSTITUTION_STATES, 'Stato'),
  region: optionalEnum(REGIONS, 'Regione'),
  sort: sortSchema(SUBSTITUTION_SORTS),
});
export type SubstitutionFilters = z.output<typeof SubstitutionFiltersSchema>;
export const SubstitutionListQuerySchema = SubstitutionFiltersSchema.extend(PaginationSchema.shape);
export type SubstitutionListQuery = z.output<typeof SubstitutionListQuerySchema>;
export const SubstitutionListResponseSchema = listResponseSchema(SubstitutionSummarySchema);

/** What the request form offers a principal or first contact: their institute's plessi and teachers. */
export const SubstitutionCandidatesSchema = z.object({
  sites: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      ministryCode: z.string(),
      instituteName: z.string(),
      /** Teachers not rejected, with their e-mail to tell apart two with the same name. */
      teachers: z.array(
        z.object({ userId: z.number().int(), name: z.string(), email: z.string(), kind: z.string() }),
      ),
    }),
  ),
});
export type SubstitutionCandidates = z.infer<typeof SubstitutionCandidatesSchema>;

export const SubstitutionCreatedSchema = z.object({
  message: z.string(),
  substitution: SubstitutionSummarySchema,
});
export const SubstitutionDecidedSchema = z.object({
  message: z.string(),
  substitution: SubstitutionSummarySchema,
});
