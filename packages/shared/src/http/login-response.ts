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
