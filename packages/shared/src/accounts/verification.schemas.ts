import { z } from 'zod';
import { MobilePhoneSchema } from './registration.schemas.ts';

export const EMAIL_VERIFICATION_STATUSES = ['verified', 'already_verified', 'expired', 'invalid'] as const;
export type EmailVerificationStatus = (typeof EMAIL_VERIFICATION_STATUSES)[number];

export const ConfirmEmailBodySchema = z.object({ token: z.string().min(1).max(200) });
/** Outcome of the link of `/verifica/email-verificata`. */
export const ConfirmEmailResponseSchema = z.object({
  status: z.enum(EMAIL_VERIFICATION_STATUSES),
  message: z.string(),
});

/** Anonymous resend needs the address; a logged-in user may send an empty body. */
export const ResendEmailVerificationBodySchema = z.object({
  email: z.string().trim().toLowerCase().email('Inserisci un indirizzo e-mail valido.').max(254).optional(),
});

export const EMAIL_VERIFICATION_MESSAGES: Record<EmailVerificationStatus, string> = {
  verified: 'Il tuo indirizzo e-mail è stato verificato.',
  already_verified: 'Il tuo indirizzo e-mail era già stato verificato.',
  expired: 'Il collegamento è scaduto: chiedi un nuovo messaggio di verifica.',
  invalid: 'Il collegamento non è valido: chiedi un nuovo messaggio di verifica.',
};
export const RESEND_EMAIL_ANSWER =
  'Se l’indirizzo appartiene a un account da verificare, riceverai a breve un nuovo collegamento (vale 24 ore).';

export const PHONE_CODE_LENGTH = 6;
export const PhoneVerificationIdSchema = z.string().uuid('Verifica non trovata.');
export const StartPhoneVerificationBodySchema = z.object({ phone: MobilePhoneSchema });
/** For a logged-in user: changing an already verified number needs the current password (A10). */
export const StartAccountPhoneVerificationBodySchema = z.object({
  phone: MobilePhoneSchema,
  current_password: z.string().max(1024).optional(),
});
export const PhoneVerificationStartedSchema = z.object({
  verificationId: z.string(),
  phoneMasked: z.string(),
  expiresInSeconds: z.number().int(),
  resendAfterSeconds: z.number().int(),
});
export const ConfirmPhoneBodySchema = z.object({
  code: z
    .string({ error: 'Inserisci il codice ricevuto via SMS.' })
    .trim()
    .regex(/^\d{6}$/, 'Il codice è formato da 6 cifre.'),
});
/** `GET /api/phone-verifications/:verificationId`: backs the guard must-have-verified-phone-on-query-param. */
export const PhoneVerificationStatusSchema = z.object({
  verificationId: z.string(),
  verified: z.boolean(),
  phoneMasked: z.string(),
});
export type PhoneVerificationStatus = z.infer<typeof PhoneVerificationStatusSchema>;
