import { z } from 'zod';
import { REVIEW_FIELDS } from '../vocabulary/review.constants.ts';
import { REVIEW_STATES, SubjectsSchema, TaxCodeSchema, TEACHER_KINDS } from './registration.schemas.ts';

export const SessionInfoSchema = z.object({
  id: z.number().int(),
  device: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
export const SessionListSchema = z.object({ items: z.array(SessionInfoSchema) });
export const RevokeOthersResponseSchema = z.object({ revoked: z.number().int() });

/** Fields `/auth/completa-registrazione` still has to collect or verify. */
export const MISSING_ITEMS = [
  'phone',
  'phoneVerification',
  'emailVerification',
  'taxCode',
  'schoolSite',
] as const;
export type MissingItem = (typeof MISSING_ITEMS)[number];

export const TeacherProfileSchema = z.object({
  kind: z.enum(TEACHER_KINDS),
  schoolSite: z
    .object({
      id: z.number().int(),
      name: z.string(),
      ministryCode: z.string(),
      municipalityName: z.string(),
    })
    .nullable(),
  subjects: z.array(z.string()),
  reviewState: z.enum(REVIEW_STATES),
  /** The staff's note when the registration was sent back for corrections (`da_correggere`), else null. */
  reviewNote: z.string().nullable(),
  /** The fields the reviewer flagged with the note (issue 35, item 2); empty when none. */
  reviewFields: z.array(z.enum(REVIEW_FIELDS)),
});

export const AccountProfileSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  phone: z.string().nullable(),
  phoneVerified: z.boolean(),
  taxCode: z.string().nullable(),
  teacherProfile: TeacherProfileSchema.nullable(),
  /** Empty when the registration is complete. */
  missing: z.array(z.enum(MISSING_ITEMS)),
});
export type AccountProfile = z.infer<typeof AccountProfileSchema>;

/** Italian texts of the profile update. */
export const PROFILE_MESSAGES = {
  currentPasswordRequired: 'Per cambiare il codice fiscale inserisci la password attuale.',
  currentPasswordWrong: 'La password attuale non è corretta.',
} as const;

/**
 * Completes missing data; e-mail and phone change through their own verified flows. A codice fiscale
 * already on the account (the adhesion signature is checked against it) changes only with the
 * current password (issue 32); the first one is set without.
 */
export const UpdateProfileBodySchema = z.object({
  taxCode: TaxCodeSchema.optional(),
  current_password: z.string().max(1024).optional(),
  schoolSiteId: z.number().int().positive().optional(),
  subjects: SubjectsSchema.optional(),
});

export const DeletionRequestBodySchema = z.object({ reason: z.string().trim().max(2000).optional() });
export const DeletionRequestResponseSchema = z.object({
  status: z.literal('received'),
  requestedAt: z.string(),
  message: z.string(),
});
export const DELETION_REQUEST_ANSWER =
  'Abbiamo ricevuto la richiesta di cancellazione del tuo account. Lo staff la completerà entro 30 giorni e te ne darà conferma via e-mail.';

/** Italian texts of a change of one's own e-mail address (decision 041). */
export const EMAIL_CHANGE_MESSAGES = {
  email: 'Inserisci un indirizzo e-mail valido.',
  same: 'È già il tuo indirizzo e-mail.',
  taken: 'Questo indirizzo e-mail è già usato da un altro account.',
  tooMany: 'Hai chiesto troppi collegamenti di verifica: riprova domani.',
  sent: 'Ti abbiamo inviato un collegamento al nuovo indirizzo (vale 24 ore): aprilo per confermare il cambio. Fino ad allora resta valido l’indirizzo attuale.',
} as const;

/** A change of one's own e-mail: the new address and, for safety, the current password. */
export const EmailChangeBodySchema = z
  .object({
    email: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
      z.email({ error: EMAIL_CHANGE_MESSAGES.email }).max(254, EMAIL_CHANGE_MESSAGES.email),
    ),
    current_password: z
      .string({ error: 'Inserisci la password attuale.' })
      .min(1, 'Inserisci la password attuale.')
      .max(1024),
  })
  .strict();
export type EmailChangeBody = z.input<typeof EmailChangeBodySchema>;
export const EmailChangeResponseSchema = z.object({ message: z.string() });
