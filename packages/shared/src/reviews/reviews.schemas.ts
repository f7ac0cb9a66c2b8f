import { z } from 'zod';
import type { TeacherKind } from '../accounts/registration.schemas.ts';
import { SIGNATURE_FORMAT_DETAILS, SIGNATURE_METHODS } from '../adhesions/adhesion.constants.ts';
import {
  ExactTotalSchema,
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { ADHESION_STATES } from '../registry/registry.constants.ts';
import { ApiErrorBodySchema } from '../http/api-error.ts';
import { IDENTITY_PROVIDER_NAMES } from '../identity/identity.schemas.ts';
import { IdParamSchema } from '../validation/index.ts';
import {
  decisionNeedsNote,
  REVIEW_DECISIONS,
  REVIEW_FIELDS,
  REVIEW_STATES,
  REVIEW_TYPES,
} from '../vocabulary/review.constants.ts';

const isoDateTime = z.string();
/** The registration kinds (typed against the accounts' list, without its runtime: phone parsing stays out of the web's chunk). */
const TEACHER_KINDS = ['insegnante', 'educatore', 'altro'] as const satisfies readonly TeacherKind[];

/** `:type` of every review route: any other value names no queue (404, never 422). */
export const ReviewTypeParamsSchema = z.object({ type: z.enum(REVIEW_TYPES) });
export const ReviewItemParamsSchema = ReviewTypeParamsSchema.extend({ itemId: IdParamSchema });

/** One row of a queue: the submission, its subject's name and code, and where it stands. */
export const ReviewSummarySchema = z.object({
  id: z.number().int(),
  type: z.enum(REVIEW_TYPES),
  subjectId: z.number().int(),
  /** Teacher "Cognome Nome" or institute name. */
  title: z.string(),
  /** Teacher e-mail or institute codice meccanografico. */
  code: z.string(),
  /** Plesso or comune (provincia): where the subject is. */
  place: z.string().nullable(),
  state: z.enum(REVIEW_STATES),
  submittedAt: isoDateTime,
  decidedAt: isoDateTime.nullable(),
  decidedBy: z.string().nullable(),
  /** The reviewer holding the item right now (walking the queue), if any. */
  claimedBy: z.string().nullable(),
});
export type ReviewSummary = z.infer<typeof ReviewSummarySchema>;

export const REVIEW_SORTS = ['submittedAt', 'decidedAt', 'title'] as const;
export const REVIEW_DEFAULT_SORT = 'submittedAt';

/** Filters shared by the queue list and its export. */
export const ReviewFiltersSchema = z.object({
  q: SearchTextSchema,
  state: optionalEnum(REVIEW_STATES, 'Stato'),
  sort: sortSchema(REVIEW_SORTS),
});
export const ReviewListQuerySchema = ReviewFiltersSchema.extend(PaginationSchema.shape).extend(
  ExactTotalSchema.shape,
);
export type ReviewListQuery = z.output<typeof ReviewListQuerySchema>;
export type ReviewFilters = z.output<typeof ReviewFiltersSchema>;

export const ReviewCountsSchema = z.object({
  in_attesa: z.number().int(),
  approvata: z.number().int(),
  da_correggere: z.number().int(),
  respinta: z.number().int(),
});
export type ReviewCounts = z.infer<typeof ReviewCountsSchema>;

/** The queue's page plus the counts per state of the whole queue (the filter chips). */
export const ReviewListResponseSchema = listResponseSchema(ReviewSummarySchema).extend({
  counts: ReviewCountsSchema,
});
export type ReviewListResponse = z.infer<typeof ReviewListResponseSchema>;

/** One decision of the subject's history (every submission of the same subject). */
export const ReviewHistoryEntrySchema = z.object({
  id: z.number().int(),
  state: z.enum(REVIEW_STATES),
  submittedAt: isoDateTime,
  decidedAt: isoDateTime.nullable(),
  decidedBy: z.string().nullable(),
  note: z.string().nullable(),
  /** The fields the reviewer flagged when asking for corrections (empty otherwise). */
  fields: z.array(z.enum(REVIEW_FIELDS)),
});
export type ReviewHistoryEntry = z.infer<typeof ReviewHistoryEntrySchema>;

const TeacherContentSchema = z.object({
  type: z.literal('insegnanti'),
  teacher: z.object({
    profileId: z.number().int(),
    userId: z.number().int(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    taxCode: z.string().nullable(),
    kind: z.enum(TEACHER_KINDS),
    subjects: z.array(z.string()),
    emailVerified: z.boolean(),
    phoneVerified: z.boolean(),
    registeredAt: isoDateTime,
    schoolSite: z
      .object({
        id: z.number().int(),
        name: z.string(),
        ministryCode: z.string(),
        municipalityName: z.string(),
        province: z.string(),
        instituteName: z.string().nullable(),
      })
      .nullable(),
  }),
});

export const AdhesionSignatureSchema = z.object({
  id: z.number().int(),
  method: z.enum(SIGNATURE_METHODS),
  signerName: z.string(),
  signerTaxCode: z.string().nullable(),
  signedAt: isoDateTime,
  documentSha256: z.string(),
  signedFileName: z.string().nullable(),
  signedFileSha256: z.string().nullable(),
  certificateSubject: z.string().nullable(),
  /** When the server received it: the order of the versions (never the declared signing time). */
  receivedAt: isoDateTime,
  /** What the portal verified (uploads since decision 032); null for the SMS signature and older uploads. */
  verification: z
    .object({
      qualified: z.boolean(),
      formatDetail: z.enum(SIGNATURE_FORMAT_DETAILS),
      issuer: z.string(),
      trustService: z.object({ provider: z.string(), name: z.string(), status: z.string() }),
      trustedTime: z.object({
        at: isoDateTime,
        source: z.enum(['receipt', 'timestamp']),
        authority: z.string().optional(),
      }),
      declaredSigningTime: isoDateTime.nullable(),
      /** The codice fiscale was checked against one proved with CIE/SPID (null: typed by the principal or not recorded). */
      expectedSignerVerifiedBy: z.enum(IDENTITY_PROVIDER_NAMES).nullable(),
      revocation: z.object({
        status: z.literal('good'),
        source: z.enum(['ocsp', 'crl']),
        producedAt: isoDateTime,
      }),
    })
    .nullable(),
});
export type AdhesionSignature = z.infer<typeof AdhesionSignatureSchema>;

/** One signature of the institute, as listed among its versions. */
export const AdhesionSignatureVersionSchema = z.object({
  id: z.number().int(),
  method: z.enum(SIGNATURE_METHODS),
  signerName: z.string(),
  signedAt: isoDateTime,
  receivedAt: isoDateTime,
  signedFileName: z.string().nullable(),
  /** A verification report can be downloaded for it. */
  hasReport: z.boolean(),
  /** The newest one received: what staff download and the principal sees. */
  current: z.boolean(),
});
export type AdhesionSignatureVersion = z.infer<typeof AdhesionSignatureVersionSchema>;

const AdhesionContentSchema = z.object({
  type: z.literal('adesioni'),
  institute: z.object({
    id: z.number().int(),
    name: z.string(),
    ministryCode: z.string(),
    municipalityName: z.string(),
    province: z.string(),
    region: z.string(),
    adhesionState: z.enum(ADHESION_STATES),
    principal: z.string().nullable(),
    firstContact: z.string().nullable(),
  }),
  /** The signature this item reviews; null for items that entered the queue without one (migration). */
  signature: AdhesionSignatureSchema.nullable(),
  /** Every signature of the institute in upload order (oldest first), the current one marked. */
  versions: z.array(AdhesionSignatureVersionSchema),
});

const PersonNameSchema = z.object({ id: z.number().int(), firstName: z.string(), lastName: z.string() });
const VisitContentSchema = z.object({
  type: z.literal('visite'),
  visit: z.object({
    id: z.number().int(),
    scheduledAt: isoDateTime,
    reportedAt: isoDateTime.nullable(),
    report: z.string().nullable(),
    teachersMet: z.array(PersonNameSchema),
    detector: PersonNameSchema.extend({ email: z.string() }),
    schoolSite: z.object({
      id: z.number().int(),
      name: z.string(),
      ministryCode: z.string(),
      address: z.string().nullable(),
      municipalityName: z.string(),
      province: z.string(),
      instituteName: z.string(),
    }),
    /**
     * Other reports of this visit kept as conflicts that staff have not decided yet (a former holder's
     * version, decision 061): the reviewer decides them first on the conflicts page.
     */
    openConflicts: z.number().int(),
  }),
});

export const ReviewContentSchema = z.discriminatedUnion('type', [
  TeacherContentSchema,
  AdhesionContentSchema,
  VisitContentSchema,
]);
export type ReviewContent = z.infer<typeof ReviewContentSchema>;

export const ReviewDetailSchema = ReviewSummarySchema.extend({
  submissionId: z.number().int().nullable(),
  note: z.string().nullable(),
  /** The fields flagged with a "Chiedi correzioni" decision (empty otherwise). */
  fields: z.array(z.enum(REVIEW_FIELDS)),
  claimedUntil: isoDateTime.nullable(),
  content: ReviewContentSchema,
  /** Every submission of the same subject, newest first (this one included). */
  history: z.array(ReviewHistoryEntrySchema),
});
export type ReviewDetail = z.infer<typeof ReviewDetailSchema>;

/** `next`: the item claimed for the caller, or null when nothing waits (an explicit empty answer). */
export const ReviewNextResponseSchema = z.object({
  item: ReviewDetailSchema.nullable(),
  /** Items still waiting in the queue (the claimed one included). */
  pending: z.number().int(),
});
export type ReviewNextResponse = z.infer<typeof ReviewNextResponseSchema>;

export const REVIEW_NOTE_MAX = 2000;
export const REVIEW_NOTE_REQUIRED =
  'Scrivi una nota: spiega cosa correggere o perché la richiesta è respinta.';

export const REVIEW_FIELD_UNKNOWN = 'Scegli i dati da correggere tra quelli proposti.';
export const REVIEW_FIELDS_ONLY_FOR_CHANGES =
  'I dati da correggere si segnalano solo quando chiedi correzioni.';
export const REVIEW_FIELD_NOT_IN_QUEUE = 'Questo dato non si corregge in questa coda.';

/** A reviewer's decision; request_changes and reject need a note (trimmed, 1–2000 characters). */
export const ReviewDecisionBodySchema = z
  .object({
    decision: z.enum(REVIEW_DECISIONS, {
      error: 'Scegli una decisione: approva, chiedi correzioni o respingi.',
    }),
    note: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim() || undefined : v === null ? undefined : v),
      z
        .string({ error: 'La nota deve essere un testo.' })
        .max(REVIEW_NOTE_MAX, `La nota può contenere al massimo ${REVIEW_NOTE_MAX} caratteri.`)
        .optional(),
    ),
    /**
     * With "Chiedi correzioni": the fields to correct (issue 35, item 2), from the queue's
     * `REVIEW_CORRECTABLE_FIELDS`; the note still says what is wrong.
     */
    fields: z.preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z
        .array(z.string(), { error: REVIEW_FIELD_UNKNOWN })
        .max(REVIEW_FIELDS.length, REVIEW_FIELD_UNKNOWN)
        // One message on `fields` (not per element), where the form shows it.
        .refine((v) => v.every((f) => (REVIEW_FIELDS as readonly string[]).includes(f)), REVIEW_FIELD_UNKNOWN)
        .pipe(z.array(z.enum(REVIEW_FIELDS)))
        .default([]),
    ),
  })
  .superRefine((body, ctx) => {
    if (decisionNeedsNote(body.decision) && !body.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: REVIEW_NOTE_REQUIRED });
    if (body.decision !== 'request_changes' && body.fields.length > 0)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: REVIEW_FIELDS_ONLY_FOR_CHANGES });
  });
export type ReviewDecisionBody = z.output<typeof ReviewDecisionBodySchema>;

export const ReviewDecisionResponseSchema = z.object({
  item: ReviewDetailSchema,
  /** The next item that waits (not claimed by another reviewer), to move on. */
  nextItemId: z.number().int().nullable(),
});
export type ReviewDecisionResponse = z.infer<typeof ReviewDecisionResponseSchema>;

/**
 * The 409 of a decision: another reviewer decided first (`nextItemId` says where to go on), or the
 * subject can no longer take the decision (an institute no longer in «adesione firmata»).
 */
export const ReviewConflictSchema = ApiErrorBodySchema.extend({
  nextItemId: z.number().int().nullable().optional(),
});
export type ReviewConflict = z.infer<typeof ReviewConflictSchema>;
