import { z } from 'zod';
import {
  checkPasswordStrength,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  type PasswordContext,
} from './password-policy.ts';

/** A new password: policy without personal context (the API adds the user's name and e-mail). */
export const NewPasswordSchema = z
  .string({ error: 'Inserisci la password.' })
  .max(PASSWORD_MAX_LENGTH * 4, PASSWORD_MESSAGES.tooLong)
  .superRefine((password, ctx) => {
    const { problem } = checkPasswordStrength(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Adds the policy issue for `password` with the user's own words (name, e-mail) as context. */
export function refinePasswordWithContext(
  value: { password: string; password_confirmation?: string } & PasswordContext,
  ctx: z.RefinementCtx,
): void {
  const { problem } = checkPasswordStrength(value.password, value);
  if (problem) ctx.addIssue({ code: 'custom', path: ['password'], message: problem });
  if (value.password_confirmation !== undefined && value.password_confirmation !== value.password) {
    ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: PASSWORD_MESSAGES.mismatch });
  }
}

const confirmation = z.string({ error: 'Ripeti la nuova password.' }).max(PASSWORD_MAX_LENGTH * 4);
const samePassword = (v: { password: string; password_confirmation: string }) =>
  v.password === v.password_confirmation;

export const ResetPasswordBodySchema = z
  .object({
    token: z.string().min(20, 'Il collegamento non è valido.').max(200),
    password: NewPasswordSchema,
    password_confirmation: confirmation,
  })
  .refine(samePassword, { path: ['password_confirmation'], message: PASSWORD_MESSAGES.mismatch });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

export const ChangePasswordBodySchema = z
  .object({
    current_password: z.string().min(1, 'Inserisci la password attuale.').max(1024),
    password: NewPasswordSchema,
    password_confirmation: confirmation,
  })
  .refine(samePassword, { path: ['password_confirmation'], message: PASSWORD_MESSAGES.mismatch });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;
