import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { OpenSurveySchema } from './surveys.schemas.ts';
import {
  ACCESS_CODE_LENGTH,
  ACCESS_CODE_MAX_USES,
  ACCESS_CODES_PER_REQUEST_MAX,
} from './survey.constants.ts';

/** Seed-spec §5: exactly 7 letters or digits. Anything else opens nothing (the same 404 as an unknown code). */
export const ACCESS_CODE_PATTERN = new RegExp(`^[A-Za-z0-9]{${ACCESS_CODE_LENGTH}}$`);
export const isAccessCodeShape = (value: string): boolean => ACCESS_CODE_PATTERN.test(value);
/** Well-formed texts that are never a code: the static API paths beside `/api/access-codes/:code`. */
export const ACCESS_CODE_RESERVED: readonly string[] = ['options', 'export'];

/** Where a code stands, derived from its uses, expiry and revocation (a revoked code is `revoked` first). */
export const ACCESS_CODE_STATES = ['usable', 'expired', 'exhausted', 'revoked'] as const;
export type AccessCodeState = (typeof ACCESS_CODE_STATES)[number];
export const ACCESS_CODE_STATE_LABELS: Record<AccessCodeState, string> = {
  usable: 'Utilizzabile',
  expired: 'Scaduto',
  exhausted: 'Esaurito',
  revoked: 'Revocato',
};

/** How many codes one printed sheet may hold. */
export const ACCESS_CODE_SHEET_MAX = 200;
export const CLASS_LABEL_MAX = 40;

/** The Italian texts of access codes (API messages and the web's). */
export const ACCESS_CODE_MESSAGES = {
  /** The one answer of the public endpoints for a malformed, unknown, expired, revoked or used-up code. */
  notFound:
    'Codice di accesso non valido: non esiste, è scaduto, è stato revocato oppure è già stato usato tutte le volte previste.',
  rateLimited:
    'Hai fatto troppi tentativi con i codici di accesso in poco tempo. Riprova tra qualche minuto.',
  thanks: 'Grazie! Le tue risposte sono state registrate in forma anonima.',
  codeNotFoundStaff: 'Codice di accesso non trovato.',
  alreadyRevoked: 'Il codice è già stato revocato.',
  revoked: 'Codice revocato: non apre più il questionario.',
  survey: "Scegli l'indagine per cui creare i codici.",
  surveyNotOpen: "L'indagine scelta non è aperta: i codici si creano solo per un'indagine aperta.",
  /** Decision 046: codes only for a survey that code holders answer. */
  surveyNotForCodes:
    "L'indagine scelta è rivolta solo a insegnanti ed educatori: i codici di accesso servono a studenti e famiglie.",
  schoolSite: 'Scegli il plesso.',
  schoolSiteUnknown: 'Il plesso scelto non esiste.',
  notYourSchoolSite: 'Puoi creare codici solo per il plesso in cui insegni.',
  noSchoolSite: 'Il tuo profilo non indica ancora un plesso: completalo prima di creare i codici.',
  classLabel: `Indica la classe (da 1 a ${CLASS_LABEL_MAX} caratteri, per esempio «3ª B»).`,
  count: `Indica quanti codici creare: un numero intero da 1 a ${ACCESS_CODES_PER_REQUEST_MAX}.`,
  maxUses: `Indica quante volte si può usare ogni codice: un numero intero da 1 a ${ACCESS_CODE_MAX_USES}.`,
  expiresOn: 'Indica la data di scadenza (gg/mm/aaaa).',
  expiresInPast: 'La data di scadenza non può essere già passata.',
  expiresAfterClose: (closesOn: string) =>
    `La data di scadenza non può essere dopo la chiusura dell'indagine (${closesOn}).`,
  ids: `Indica da 1 a ${ACCESS_CODE_SHEET_MAX} codici da stampare.`,
  /** A teacher whose registration staff have not approved (yet, or again after a change of plesso). */
  notApproved:
    'La tua registrazione non è ancora stata approvata dallo staff: potrai creare i codici di accesso dopo l’approvazione.',
  toCorrect:
    'Lo staff ti ha chiesto di correggere la registrazione: correggila e inviala di nuovo, potrai creare i codici di accesso dopo l’approvazione.',
  rejected: 'La tua registrazione è stata respinta dallo staff: non puoi creare codici di accesso.',
  teacherMaxUses: (max: number) =>
    `Ogni codice si può usare al massimo ${max} volte (una classe): per più studenti crea più codici.`,
  teacherDailyCodes: (max: number) =>
    `Puoi creare al massimo ${max} codici al giorno: hai raggiunto il limite di oggi. Riprova domani o scrivi allo staff.`,
  siteDailyUses:
    'Oggi questo plesso ha già raccolto il numero massimo di risposte con i codici di accesso. Riprova domani.',
} as const;

const isoDate = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, message)
    .refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, message);

const optionalId = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: `${label} non valido.` })
      .int(`${label} non valido.`)
      .positive(`${label} non valido.`)
      .max(Number.MAX_SAFE_INTEGER, `${label} non valido.`)
      .optional(),
  );

/** A code as its teacher and staff see it. */
export const AccessCodeSummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  surveyId: z.number().int(),
  surveyTitle: z.string(),
  schoolSiteId: z.number().int(),
  schoolSiteName: z.string(),
  classLabel: z.string().nullable(),
  ownerUserId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  maxUses: z.number().int(),
  uses: z.number().int(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  state: z.enum(ACCESS_CODE_STATES),
});
export type AccessCodeSummary = z.infer<typeof AccessCodeSummarySchema>;

export const ACCESS_CODE_SORTS = ['createdAt', 'code', 'classLabel', 'uses', 'expiresAt'] as const;
export const AccessCodeFiltersSchema = z.object({
  q: SearchTextSchema,
  surveyId: optionalId('Indagine'),
  schoolSiteId: optionalId('Plesso'),
  state: optionalEnum(ACCESS_CODE_STATES, 'Stato'),
  sort: sortSchema(ACCESS_CODE_SORTS),
});
export const AccessCodeListQuerySchema = AccessCodeFiltersSchema.extend(PaginationSchema.shape);
export type AccessCodeListQuery = z.output<typeof AccessCodeListQuerySchema>;
export type AccessCodeFilters = Omit<AccessCodeListQuery, 'page' | 'pageSize' | 'sort'> & {
  sort?: AccessCodeListQuery['sort'];
};
export const AccessCodeListResponseSchema = listResponseSchema(AccessCodeSummarySchema);

/** What the create form offers: the open surveys and, for a teacher, their plesso. */
export const AccessCodeOptionsSchema = z.object({
  surveys: z.array(z.object({ id: z.number().int(), title: z.string(), closesOn: z.string() })),
  /** The caller's own plesso (teachers and educators); null for staff or when the profile has none. */
  schoolSite: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Why the caller cannot make codes now (a teacher not approved, decision 029); null when they can. */
  blockedReason: z.string().nullable(),
  /** The most uses of one code the caller may ask for (a teacher: a class; staff: the contract's ceiling). */
  maxUses: z.number().int(),
});
export type AccessCodeOptions = z.infer<typeof AccessCodeOptionsSchema>;

/** The create form. A teacher's plesso is their own (`schoolSiteId` may be left out); staff choose one. */
export const AccessCodeInputSchema = z
  .object({
    surveyId: z.coerce
      .number({ error: ACCESS_CODE_MESSAGES.survey })
      .int(ACCESS_CODE_MESSAGES.survey)
      .positive(ACCESS_CODE_MESSAGES.survey)
      .max(Number.MAX_SAFE_INTEGER, ACCESS_CODE_MESSAGES.survey),
    schoolSiteId: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.coerce
        .number({ error: ACCESS_CODE_MESSAGES.schoolSite })
        .int(ACCESS_CODE_MESSAGES.schoolSite)
        .positive(ACCESS_CODE_MESSAGES.schoolSite)
        .max(Number.MAX_SAFE_INTEGER, ACCESS_CODE_MESSAGES.schoolSite)
        .optional(),
    ),
    classLabel: z
      .string({ error: ACCESS_CODE_MESSAGES.classLabel })
      .trim()
      .min(1, ACCESS_CODE_MESSAGES.classLabel)
      .max(CLASS_LABEL_MAX, ACCESS_CODE_MESSAGES.classLabel),
    count: z.coerce
      .number({ error: ACCESS_CODE_MESSAGES.count })
      .int(ACCESS_CODE_MESSAGES.count)
      .min(1, ACCESS_CODE_MESSAGES.count)
      .max(ACCESS_CODES_PER_REQUEST_MAX, ACCESS_CODE_MESSAGES.count),
    maxUses: z.coerce
      .number({ error: ACCESS_CODE_MESSAGES.maxUses })
      .int(ACCESS_CODE_MESSAGES.maxUses)
      .min(1, ACCESS_CODE_MESSAGES.maxUses)
      .max(ACCESS_CODE_MAX_USES, ACCESS_CODE_MESSAGES.maxUses),
    /** The last day the codes work (until 23:59 Europe/Rome), at most the survey's closing day. */
    expiresOn: isoDate(ACCESS_CODE_MESSAGES.expiresOn),
  })
  .strict();
export type AccessCodeInput = z.input<typeof AccessCodeInputSchema>;

export const AccessCodesCreatedSchema = z.object({ items: z.array(AccessCodeSummarySchema) });

/** `ids=1,2,3`: the codes of one printed sheet. */
export const AccessCodeSheetQuerySchema = z.object({
  ids: z
    .string({ error: ACCESS_CODE_MESSAGES.ids })
    .regex(/^\d{1,16}(,\d{1,16})*$/, ACCESS_CODE_MESSAGES.ids)
    .transform((v) => [...new Set(v.split(',').map(Number))])
    .refine(
      (ids) => ids.length <= ACCESS_CODE_SHEET_MAX && ids.every((id) => id > 0 && Number.isSafeInteger(id)),
      ACCESS_CODE_MESSAGES.ids,
    ),
});

/** The public code: any string (its shape is checked by the handler: a malformed code is the same 404). */
export const AccessCodeParamsSchema = z.object({ code: z.string() });

/** What a valid code opens: its survey with the questions, for its plesso (and class). */
export const PublicAccessCodeSchema = z.object({
  code: z.string(),
  classLabel: z.string().nullable(),
  expiresAt: z.string(),
  schoolSite: z.object({ name: z.string(), municipality: z.string().nullable() }),
  survey: OpenSurveySchema,
});
export type PublicAccessCode = z.infer<typeof PublicAccessCodeSchema>;

/** The answer to a submission through a code: a thank-you, nothing of the answers is shown back. */
export const AccessCodeResponseCreatedSchema = z.object({ message: z.string() });
