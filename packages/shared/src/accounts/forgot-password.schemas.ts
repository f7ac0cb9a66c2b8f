import { z } from 'zod';

export const ForgotPasswordBodySchema = z.object({
  email: z.string().trim().toLowerCase().email('Inserisci un indirizzo e-mail valido.').max(254),
});
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

/** The one answer of forgot-password, whether or not the address exists. */
export const FORGOT_PASSWORD_ANSWER =
  'Se l’indirizzo è registrato, riceverai a breve un’e-mail con il collegamento per scegliere una nuova password. Il collegamento vale 60 minuti.';

export const StatusMessageSchema = z.object({ status: z.string(), message: z.string() });
export type StatusMessage = z.infer<typeof StatusMessageSchema>;
