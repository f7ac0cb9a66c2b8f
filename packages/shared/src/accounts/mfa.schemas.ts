import { TokenResponseSchema } from '../auth/session-user.ts';
import { z } from 'zod';

// The login answers sit with the login endpoint in http/ (no folder circle): re-exported here.
export {
  LoginResponseSchema,
  MfaEnrolmentResponseSchema,
  MfaRequiredResponseSchema,
  type LoginResponse,
} from '../http/login-response.ts';

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
