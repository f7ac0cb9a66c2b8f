import { redirect, type ActionFunctionArgs } from 'react-router';
import { LoginBodySchema } from '@portale/shared/auth';
import { MfaVerifyBodySchema } from '@portale/shared/accounts/mfa';
import { AUTH_COOKIES } from '@portale/shared/http';
import { safeReturnPath } from '@portale/shared/pages';
import { deleteCookie, readCookie } from '../../lib/cookies.ts';
import { ApiError } from '../../lib/http-client.ts';
import { login, verifySecondFactor } from '../../lib/session.ts';

export type LoginActionData =
  | { step: 'password'; message: string }
  | {
      step: 'second-factor';
      mfaToken: string;
      enrolment?: { secret: string; otpauthUri: string };
      message?: string;
    }
  | { step: 'recovery-codes'; codes: string[]; next: string };

/** Where to go after login: the validated return path, consumed once. */
function consumeReturnPath(): string {
  const target = safeReturnPath(readCookie(AUTH_COOKIES.redirect));
  deleteCookie(AUTH_COOKIES.redirect);
  return target;
}

const failure = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Accesso non riuscito. Riprova più tardi.';

async function passwordStep(form: FormData): Promise<LoginActionData | Response> {
  const parsed = LoginBodySchema.safeParse({ email: form.get('email'), password: form.get('password') });
  if (!parsed.success)
    return { step: 'password', message: parsed.error.issues[0]?.message ?? 'Compila tutti i campi.' };
  try {
    const result = await login(parsed.data);
    if (result.kind === 'signed-in') return redirect(consumeReturnPath());
    return {
      step: 'second-factor',
      mfaToken: result.mfaToken,
      ...(result.enrolment ? { enrolment: result.enrolment } : {}),
    };
  } catch (error) {
    return { step: 'password', message: failure(error) };
  }
}

async function secondFactorStep(form: FormData): Promise<LoginActionData | Response> {
  const mfaToken = String(form.get('mfa_token') ?? '');
  const enrolment = form.get('secret')
    ? { secret: String(form.get('secret')), otpauthUri: String(form.get('otpauth_uri') ?? '') }
    : undefined;
  const retry = (message: string): LoginActionData => ({
    step: 'second-factor',
    mfaToken,
    message,
    ...(enrolment ? { enrolment } : {}),
  });
  const code = String(form.get('code') ?? '').trim();
  const parsed = MfaVerifyBodySchema.safeParse(
    /^\d{6}$/.test(code) || !code
      ? { mfa_token: mfaToken, code }
      : { mfa_token: mfaToken, recovery_code: code },
  );
  if (!parsed.success) return retry(parsed.error.issues[0]?.message ?? 'Codice non valido.');
  try {
    const result = await verifySecondFactor(parsed.data);
    if (result.recoveryCodes)
      return { step: 'recovery-codes', codes: result.recoveryCodes, next: consumeReturnPath() };
    return redirect(consumeReturnPath());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      return { step: 'password', message: error.message };
    return retry(failure(error));
  }
}

export async function action({ request }: ActionFunctionArgs): Promise<LoginActionData | Response> {
  const form = await request.formData();
  return form.get('intent') === 'second-factor' ? secondFactorStep(form) : passwordStep(form);
}
