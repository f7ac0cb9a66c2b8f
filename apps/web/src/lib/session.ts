import { useSyncExternalStore } from 'react';
import type { LoginBody, SessionUser } from '@portale/shared/auth';
import { verifyMfa, type MfaVerifyBody } from '@portale/shared/accounts/mfa';
import { linkIdentity, linkIdentityWithCode } from '@portale/shared/identity';
import { AUTH_COOKIES, authLogin, authLogout, authMe, SEED_ERRORS } from '@portale/shared/http';
import {
  ApiError,
  apiRequest,
  callApi,
  clearAccessToken,
  ensureXsrfCookie,
  ExpiredAuthSessionError,
  onAccessTokenCleared,
  refreshAccessToken,
  storeAccessToken,
  withXsrf,
} from './api-client.ts';
import { deleteCookie, readCookie, writeCookie } from './cookies.ts';
import { clearDetectorDataCache } from './detector-data-cache.ts';

/**
 * Session state of seed-spec §3: who is signed in. The access token, its renewal and the XSRF
 * handling belong to the API client (lib/api-client.ts); this module only knows the user.
 */
export interface SessionState {
  user: SessionUser | null;
  loggedIn: boolean;
  strategy: string;
  busy: boolean;
}

let state: SessionState = {
  user: null,
  loggedIn: false,
  strategy: AUTH_COOKIES.defaultStrategy,
  busy: false,
};
let restoring: Promise<void> | null = null;
const listeners = new Set<() => void>();

function setState(patch: Partial<SessionState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

// The client drops the token when the session cannot be renewed: the user goes with it.
onAccessTokenCleared(() => setState({ user: null, loggedIn: false }));

/** Clears user and token (seed "reset"); the server session is ended by logout only. */
export function resetSession(): void {
  clearAccessToken();
}

async function fetchUser(): Promise<SessionUser> {
  // The low-level client: a body without `user` is the seed's own error, not a contract mismatch.
  const body = await apiRequest<{ user?: unknown }>(authMe.path);
  if (!body || !body.user) throw new Error(SEED_ERRORS.missingUserField);
  const { user } = authMe.response.parse(body);
  setState({ user, loggedIn: true });
  return user;
}

/** Refetches the signed-in user (after a change the server made: password flag cleared, contacts verified). */
export function reloadUser(): Promise<SessionUser> {
  return fetchUser();
}

/** Outcome of the password step: signed in, or a second factor is needed (staff roles). */
export type LoginStep =
  | { kind: 'signed-in'; user: SessionUser }
  | { kind: 'second-factor'; mfaToken: string; enrolment?: { secret: string; otpauthUri: string } };

async function completeLogin(token: string, expiresIn: number): Promise<SessionUser> {
  storeAccessToken(token, expiresIn);
  const user = await fetchUser();
  if (!readCookie(AUTH_COOKIES.strategy)) writeCookie(AUTH_COOKIES.strategy, state.strategy);
  return user;
}

async function busyWhile<T>(work: () => Promise<T>): Promise<T> {
  setState({ busy: true });
  try {
    return await work();
  } finally {
    setState({ busy: false });
  }
}

/** Login (seed §4): reset, CSRF cookie, POST login, store the token, fetch the user. */
export function login(credentials: LoginBody): Promise<LoginStep> {
  return busyWhile(async () => {
    resetSession();
    await clearDetectorDataCache();
    await ensureXsrfCookie(true);
    // Without a token (just reset): the XSRF cookie fetched above, no bearer and no refresh attempt.
    const body = authLogin.response.parse(
      await withXsrf<unknown>(authLogin.path, { method: authLogin.method, body: credentials }),
    );
    if ('token' in body) return { kind: 'signed-in', user: await completeLogin(body.token, body.expires_in) };
    if ('mfa_enrolment_required' in body) {
      return {
        kind: 'second-factor',
        mfaToken: body.mfa_token,
        enrolment: { secret: body.secret, otpauthUri: body.otpauth_uri },
      };
    }
    return { kind: 'second-factor', mfaToken: body.mfa_token };
  });
}

/** Second factor of a staff login: a TOTP code or a recovery code; after enrolment, the recovery codes. */
export function verifySecondFactor(
  input: MfaVerifyBody,
): Promise<{ user: SessionUser; recoveryCodes?: string[] }> {
  return busyWhile(async () => {
    const body = verifyMfa.response.parse(
      await withXsrf<unknown>(verifyMfa.path, { method: verifyMfa.method, body: input }),
    );
    const user = await completeLogin(body.token, body.expires_in);
    return body.recovery_codes ? { user, recoveryCodes: body.recovery_codes } : { user };
  });
}

/**
 * After a login at CIE (decision 048): the API's callback opened the session and set the refresh
 * cookie; the web renews its access token from it and fetches the user, as after a page load.
 */
export function adoptProviderSession(): Promise<SessionUser> {
  return busyWhile(async () => {
    resetSession();
    await clearDetectorDataCache();
    await refreshAccessToken();
    const user = await fetchUser();
    if (!readCookie(AUTH_COOKIES.strategy)) writeCookie(AUTH_COOKIES.strategy, state.strategy);
    return user;
  });
}

/** Links the verified identity waiting in this browser to its account (the account's password) and signs in. */
export function linkProviderIdentity(proof: { password: string } | { code: string }): Promise<SessionUser> {
  // The account proved by its password, or by the code sent to its confirmed e-mail.
  const endpoint = 'code' in proof ? linkIdentityWithCode : linkIdentity;
  return busyWhile(async () => {
    resetSession();
    await clearDetectorDataCache();
    const body = endpoint.response.parse(
      await withXsrf<unknown>(endpoint.path, { method: endpoint.method, body: proof }),
    );
    return completeLogin(body.token, body.expires_in);
  });
}

/**
 * Logout: the server revokes the session; whatever it answers, the client resets (seed §8). A session
 * opened by SPID answers the identity provider's logout URL (SAML single logout, decision 052): the
 * caller sends the browser there (it comes back to the home page); null otherwise.
 */
export async function logout(): Promise<string | null> {
  deleteCookie(AUTH_COOKIES.strategy);
  deleteCookie(AUTH_COOKIES.redirect);
  let providerLogoutUrl: string | null = null;
  try {
    ({ providerLogoutUrl } = await callApi(authLogout, {}));
  } catch (error) {
    console.error('[auth] logout failed', error);
  }
  resetSession();
  // The detector's pages kept offline (service worker cache) are this user's: gone with the session.
  await clearDetectorDataCache();
  return providerLogoutUrl;
}

/** The session was restored with no network, from the user the service worker kept (no access token). */
let restoredOffline = false;

/** Whether the failure means "no network" (no answer at all), not a refusal. */
const unreachable = (error: unknown) =>
  error instanceof ApiError ? error.status === 0 : error instanceof TypeError;

/**
 * With no network at start, a detector whose pages the service worker kept stays signed in on this
 * device (issue 39): the user comes from the cached `/api/auth/me`, without an access token. The
 * token is renewed when the network comes back (`renewOfflineSession`). Without that cache (any other
 * user) the request fails and the session is reset as before.
 */
async function restoreOffline(): Promise<boolean> {
  try {
    await fetchUser();
    restoredOffline = true;
    return true;
  } catch {
    return false;
  }
}

/**
 * After an offline start: renews the access token from the refresh cookie once the network is back.
 * A refused renewal (session ended meanwhile) signs the user out; the drafts stay on the device.
 */
export async function renewOfflineSession(): Promise<void> {
  if (!restoredOffline) return;
  try {
    await refreshAccessToken();
    restoredOffline = false;
  } catch (error) {
    if (!unreachable(error)) {
      restoredOffline = false;
      resetSession();
    }
  }
}

/**
 * On a full page load: a browser that has logged in before (auth.strategy cookie) renews its
 * access token from the HttpOnly refresh cookie, then fetches the user. An expired session is
 * silently ignored at start-up; other errors are logged.
 */
export function restoreSession(): Promise<void> {
  restoring ??= (async () => {
    const strategy = readCookie(AUTH_COOKIES.strategy);
    if (!strategy) return;
    setState({ strategy, busy: true });
    try {
      await refreshAccessToken();
      await fetchUser();
    } catch (error) {
      if (unreachable(error) && (await restoreOffline())) {
        if (typeof window !== 'undefined')
          window.addEventListener('online', () => void renewOfflineSession());
        return;
      }
      resetSession();
      const expired = error instanceof ApiError && error.status === 401;
      if (!expired && !(error instanceof ExpiredAuthSessionError)) console.error('[auth]', error);
    } finally {
      setState({ busy: false });
    }
  })();
  return restoring;
}

export function getSession(): SessionState {
  return state;
}

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
