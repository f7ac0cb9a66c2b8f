import { z } from 'zod';
import type { TeacherKind } from '../accounts/registration.schemas.ts';
import {
  ExactTotalSchema,
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { PROVINCES, REGIONS, TEACHER_REVIEW_STATES } from '../registry/registry.constants.ts';

/** Labels of the registration kinds (product §3); typed against the accounts' list, without its runtime. */
export const TEACHER_KIND_LABELS: Record<TeacherKind, string> = {
  insegnante: 'Insegnante',
  educatore: 'Educatore/Educatrice',
  altro: 'Altro',
};
const KINDS = Object.keys(TEACHER_KIND_LABELS) as [TeacherKind, ...TeacherKind[]];

export const TeacherSummarySchema = z.object({
  /** The teacher profile's id (the user has its own). */
  id: z.number().int(),
  userId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  kind: z.enum(KINDS),
  reviewState: z.enum(TEACHER_REVIEW_STATES),
  schoolSiteId: z.number().int().nullable(),
  schoolSiteCode: z.string().nullable(),
  schoolSiteName: z.string().nullable(),
  municipalityName: z.string().nullable(),
  province: z.string().nullable(),
  region: z.string().nullable(),
  instituteId: z.number().int().nullable(),
  instituteName: z.string().nullable(),
  emailVerified: z.boolean(),
  phoneVerified: z.boolean(),
  createdAt: z.string(),
});
export type TeacherSummary = z.infer<typeof TeacherSummarySchema>;

export const TEACHER_SORTS = [
  'name',
  'email',
  'kind',
  'reviewState',
  'schoolSiteName',
  'province',
  'createdAt',
] as const;

const optionalId = (message: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: message })
      .int(message)
      .positive(message)
      .max(Number.MAX_SAFE_INTEGER, message)
      .optional(),
  );

/** Filters shared by the list and its export. */
export const TeacherFiltersSchema = z.object({
  q: SearchTextSchema,
  kind: optionalEnum(KINDS, 'Tipo'),
  reviewState: optionalEnum(TEACHER_REVIEW_STATES, 'Stato della revisione'),
  region: optionalEnum(REGIONS, 'Regione'),
  province: optionalEnum(PROVINCES, 'Provincia'),
  schoolSiteId: optionalId('Plesso non valido.'),
  sort: sortSchema(TEACHER_SORTS),
});
export const TeacherListQuerySchema = TeacherFiltersSchema.extend(PaginationSchema.shape).extend(
  ExactTotalSchema.shape,
);
export type TeacherListQuery = z.output<typeof TeacherListQuerySchema>;
export const TeacherListResponseSchema = listResponseSchema(TeacherSummarySchema);

export const TeacherDetailSchema = TeacherSummarySchema.extend({
  phone: z.string().nullable(),
  subjects: z.array(z.string()),
  instituteCode: z.string().nullable(),
  userStatus: z.enum(['active', 'suspended']),
  emailVerifiedAt: z.string().nullable(),
  phoneVerifiedAt: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  updatedAt: z.string(),
  /** Answers held out of the results since the teacher was rejected (their codes' and their own), waiting for staff (decision 029). */
  heldResponses: z.number().int(),
});
export type TeacherDetail = z.infer<typeof TeacherDetailSchema>;

/**
 * Staff's decision on the answers held since a teacher was rejected (decision 029): `include` counts
 * them again in the published results (the class really answered), `discard` leaves them out for good.
 */
export const HELD_RESPONSE_DECISIONS = ['include', 'discard'] as const;
export type HeldResponseDecision = (typeof HELD_RESPONSE_DECISIONS)[number];
export const HELD_RESPONSE_MESSAGES = {
  decision: 'Scegli se conteggiare di nuovo le risposte sospese o scartarle.',
  nothingHeld: 'Non ci sono risposte sospese per questo insegnante.',
  included: (n: number) =>
    n === 1
      ? 'Una risposta sospesa è di nuovo conteggiata nei risultati.'
      : `${n} risposte sospese sono di nuovo conteggiate nei risultati.`,
  discarded: (n: number) =>
    n === 1
      ? 'Una risposta sospesa è stata scartata: non sarà conteggiata nei risultati.'
      : `${n} risposte sospese sono state scartate: non saranno conteggiate nei risultati.`,
} as const;
export const HeldResponsesDecisionSchema = z
  .object({ decision: z.enum(HELD_RESPONSE_DECISIONS, { error: HELD_RESPONSE_MESSAGES.decision }) })
  .strict();
export const HeldResponsesDecidedSchema = z.object({
  decision: z.enum(HELD_RESPONSE_DECISIONS),
  /** How many held answers the decision reached. */
  count: z.number().int(),
  message: z.string(),
});
export type HeldResponsesDecided = z.infer<typeof HeldResponsesDecidedSchema>;
