import { z } from 'zod';
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
export const MISSING_ITEMS = ['phone', 'phoneVerification', 'emailVerification', 'taxCode', 'schoolSite'] as const;
export type MissingItem = (typeof MISSING_ITEMS)[number];

export const TeacherProfileSchema = z.object({
  kind: z.enum(TEACHER_KINDS),
  schoolSite: z.object({ id: z.number().int(), name: z.string(), ministryCode: z.string(), municipalityName: z.string() }).nullable(),
  subjects: z.array(z.string()),
  reviewState: z.enum(REVIEW_STATES),
  /** The staff's note when the registration was sent back for corrections (`da_correggere`), else null. */
  reviewNote: z.string().nullable(),
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
