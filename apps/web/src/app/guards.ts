import { data, redirect } from 'react-router';
import { AUTH_COOKIES } from '@portale/shared/http';
import { REDIRECTS, type PageDef, evaluateAccess } from '@portale/shared/pages';
import { writeCookie } from '../lib/cookies.ts';
import { ApiError, callApi } from '../lib/api-client.ts';
import { getSession, restoreSession } from '../lib/session.ts';

/** Query parameter that carries the phone-verification id into the enrolment form. */
export const PHONE_VERIFICATION_PARAM = 'verifica';

async function hasVerifiedPhone(verificationId: string): Promise<boolean> {
  try {
    const { getPhoneVerification } = await import('@portale/shared/accounts');
    const result = await callApi(getPhoneVerification, { params: { verificationId } });
    return result.verified;
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
    throw error;
  }
}

/**
 * Runs a page's guards in a loader: redirects (keeping the return path for login) or throws the
 * 403 error screen with the guard's Italian message.
 */
export async function runGuards(page: PageDef, request: Request): Promise<void> {
  await restoreSession();
  const decision = evaluateAccess(page, getSession().user);
  const url = new URL(request.url);
  if (decision.kind === 'redirect') {
    if (decision.keepReturnPath) writeCookie(AUTH_COOKIES.redirect, url.pathname + url.search);
    throw redirect(decision.to);
  }
  if (decision.kind === 'forbidden') throw data({ message: decision.message }, { status: 403 });
  if (page.guards.includes('must-have-verified-phone-on-query-param')) {
    const verificationId = url.searchParams.get(PHONE_VERIFICATION_PARAM);
    if (verificationId && !(await hasVerifiedPhone(verificationId))) throw redirect(REDIRECTS.enrolment);
  }
}
