import { z } from 'zod';
import { TokenResponseSchema } from '../auth/session-user.ts';

/** Login of a user whose role needs a second factor and who has one: no session yet. */
export const MfaRequiredResponseSchema = z.object({
  mfa_required: z.literal(true),
  mfa_token: z.string(),
  expires_in: z.number().int(),
});
/** First login of such a user: enrol an authenticator app with this secret, then verify a code. */
export const MfaEnrolmentResponseSchema = z.object({
  mfa_enrolment_required: z.literal(true),
  mfa_token: z.string(),
  expires_in: z.number().int(),
  secret: z.string(),
  otpauth_uri: z.string(),
});
/** `POST /api/auth/login`: the token answer, or one of the two MFA steps (staff roles). */
export const LoginResponseSchema = z.union([
  TokenResponseSchema,
  MfaRequiredResponseSchema,
  MfaEnrolmentResponseSchema,
]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const MfaVerifyBodySchema = z
  .object({
    mfa_token: z.string().min(20).max(200),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Il codice è formato da 6 cifre.')
      .optional(),
    recovery_code: z.string().trim().min(8).max(40).optional(),
  })
  .refine((v) => Boolean(v.code) !== Boolean(v.recovery_code), {
    path: ['code'],
    message: 'Inserisci il codice dell’app di autenticazione oppure un codice di recupero.',
  });
export type MfaVerifyBody = z.infer<typeof MfaVerifyBodySchema>;

/** The token answer; after enrolment it also carries the recovery codes, shown once. */
export const MfaVerifyResponseSchema = TokenResponseSchema.extend({
  recovery_codes: z.array(z.string()).optional(),
});
