import { tokenStatus } from '@portale/shared/auth';
import {
  AUTH_COOKIES,
  authCsrf,
  authRefresh,
  buildPath,
  ERROR_MESSAGES,
  HTTP_DEFAULTS,
  SEED_ERRORS,
  type ApiErrorBody,
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
} from '@portale/shared/http';
import { apiOrigin } from './config.ts';
import { deleteCookie, readCookie, writeCookie } from './cookies.ts';
import {
  DOWNLOAD_ACCEPT,
  readDownload,
  saveBlob,
  type DownloadProgress,
  type DownloadResult,
} from './download.ts';
import { ApiError, createHttpClient, type RequestOptions } from './http-client.ts';

export { ApiError };
export type { DownloadProgress, DownloadResult };

/** Seed-spec §8: the request is aborted because the session cannot be renewed. */
export class ExpiredAuthSessionError extends Error {
  constructor() {
    super(SEED_ERRORS.expiredSession);
    this.name = 'ExpiredAuthSessionError';
  }
}

/** Seed option resetOnResponseError: off by default, as in the seed. */
export const RESET_ON_RESPONSE_ERROR = false;

// The access token lives in memory only; no credential is ever persisted by JS (architecture §0).
let token: string | null = null;
let expiresAt: number | false = false;
let refreshing: Promise<void> | null = null;
const resetListeners = new Set<() => void>();

const http = createHttpClient({
  baseURL: apiOrigin(),
  xsrfToken: () => readCookie(HTTP_DEFAULTS.xsrfCookie),
});

/** Fetches the XSRF cookie when it is missing (or always, with `force`). */
export async function ensureXsrfCookie(force = false): Promise<void> {
  if (force || !readCookie(HTTP_DEFAULTS.xsrfCookie)) await http(authCsrf.path, { method: 'HEAD' });
}

/** Unsafe request with the XSRF cookie; a 419 (stale token) fetches a fresh cookie and tries once more. */
export async function withXsrf<T>(path: string, init: RequestOptions): Promise<T> {
  await ensureXsrfCookie();
  try {
    return await http<T>(path, init);
  } catch (error) {
    if (error instanceof ApiError && error.status === 419) {
      await ensureXsrfCookie(true);
      return http<T>(path, init);
    }
    throw error;
  }
}

/** Keeps a new access token (memory) and its expiry (the seed's non-secret cookie). */
export function storeAccessToken(value: string, expiresInSeconds: number): void {
  token = value;
  expiresAt = Date.now() + expiresInSeconds * 1000;
  writeCookie(AUTH_COOKIES.tokenExpiration, String(expiresAt));
}

/** Forgets the access token and tells the session (seed "reset"). */
export function clearAccessToken(): void {
  token = null;
  expiresAt = false;
  deleteCookie(AUTH_COOKIES.tokenExpiration);
  for (const listener of resetListeners) listener();
}

/** Called whenever the client drops the token (expired session, logout). */
export function onAccessTokenCleared(listener: () => void): () => void {
  resetListeners.add(listener);
  return () => resetListeners.delete(listener);
}

/**
 * Renews the access token from the HttpOnly refresh cookie; concurrent callers share one request.
 * The low-level client (no bearer: the cookie is the credential, and `callApi` would refresh first).
 */
export function refreshAccessToken(): Promise<void> {
  refreshing ??= withXsrf<unknown>(authRefresh.path, { method: authRefresh.method })
    .then((body) => {
      const parsed = authRefresh.response.parse(body);
      storeAccessToken(parsed.token, parsed.expires_in);
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** A current access token: an expired one (500 ms early) is renewed once, shared by concurrent callers. */
async function currentToken(): Promise<string | null> {
  const status = tokenStatus(token, expiresAt);
  if (status !== 'expired') return token;
  try {
    await refreshAccessToken();
    return token;
  } catch {
    clearAccessToken();
    throw new ExpiredAuthSessionError();
  }
}

async function authHeaders(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const bearer = await currentToken();
  return { ...extra, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) };
}

/**
 * The credentials of a request the app's own client does not make (the tus photo uploads of decision
 * 055): a current bearer token and the XSRF token (its cookie goes with `withCredentials`).
 */
export async function apiCredentialHeaders(): Promise<Record<string, string>> {
  await ensureXsrfCookie();
  const xsrf = readCookie(HTTP_DEFAULTS.xsrfCookie);
  return authHeaders(xsrf ? { [HTTP_DEFAULTS.xsrfHeader]: xsrf } : {});
}

/**
 * Whether a 401 may only mean that this tab's access token was replaced: a refresh (in another tab
 * sharing the refresh cookie, or a page load) ends the access token issued with the refresh token it
 * used (issue 32). The refused request was not processed, so renewing once and sending it again is safe.
 */
function replacedToken(error: unknown, sentWith: string | null): boolean {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    error.body?.code === 'unauthenticated' &&
    sentWith !== null
  );
}

/** A request to our API on behalf of the signed-in user (untyped: prefer `callApi` with a contract). */
export async function apiRequest<T>(path: string, init: RequestOptions = {}): Promise<T> {
  const unsafe = init.method && !HTTP_DEFAULTS.idempotentMethods.includes(init.method);
  const send = async () => {
    const headers = await authHeaders(init.headers);
    return unsafe ? withXsrf<T>(path, { ...init, headers }) : http<T>(path, { ...init, headers });
  };
  const sentWith = token;
  try {
    try {
      return await send();
    } catch (error) {
      if (!replacedToken(error, sentWith)) throw error;
      // Renewed once (shared with concurrent callers), unless another call already did it.
      if (token === sentWith) await refreshAccessToken().catch(() => Promise.reject(error));
      return await send();
    }
  } catch (error) {
    if (RESET_ON_RESPONSE_ERROR && error instanceof ApiError && error.status === 401) {
      clearAccessToken();
      throw new ExpiredAuthSessionError();
    }
    throw error;
  }
}

type QueryValue = string | number | boolean | null | undefined;

/** Query values as the URL carries them: empty values are left out (no filter). */
export function toQuery(query: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, QueryValue>)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = String(value);
  }
  return out;
}

interface CallOptions {
  signal?: AbortSignal;
}

/** The message of a 2xx body that does not match the contract (a deploy mismatch, never the user's fault). */
export const INVALID_RESPONSE_MESSAGE =
  'Il server ha inviato una risposta inattesa. Ricarica la pagina e riprova.';

/**
 * The media type an upload's file is sent as: the one the caller names, else the file's own type when
 * the contract accepts it, else `application/octet-stream` (the API then tells the type by its bytes).
 */
export function uploadContentType(endpoint: Endpoint, file: Blob, contentType?: string): string {
  if (contentType) return contentType;
  return endpoint.upload?.types.includes(file.type) ? file.type : 'application/octet-stream';
}

/**
 * Calls one endpoint of a shared contract: the URL comes from its path and params, query and body are
 * sent as given (the API validates them: a 422 carries Italian messages), and the 2xx body is always
 * parsed with the contract's response schema; a mismatch throws an ApiError. The body of an upload
 * contract (`upload: { types }`) is a `Blob`/`File`, sent as it is (not JSON) with its media type.
 */
export async function callApi<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<EndpointOutput<E>> {
  const { params, query, body, contentType } = input as {
    params?: Record<string, string | number>;
    query?: object;
    body?: Record<string, unknown> | Blob;
    contentType?: string;
  };
  const path = buildPath(endpoint.path, params);
  const file = endpoint.upload ? (body as Blob) : undefined;
  const raw = await apiRequest<unknown>(path, {
    method: endpoint.method,
    ...(query ? { query: toQuery(query) } : {}),
    ...(file
      ? {
          headers: { 'content-type': uploadContentType(endpoint, file, contentType) },
          // The client passes a Blob through untouched (not JSON).
          body: file as unknown as Record<string, unknown>,
        }
      : body !== undefined
        ? { body: body as Record<string, unknown> }
        : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const parsed = endpoint.response.safeParse(endpoint.status === 204 ? undefined : raw);
  if (!parsed.success) {
    console.error(
      `[api] ${endpoint.method} ${endpoint.path}: response does not match the contract`,
      parsed.error.issues,
    );
    throw new ApiError(502, INVALID_RESPONSE_MESSAGE);
  }
  return parsed.data as EndpointOutput<E>;
}

/** The absolute URL of an endpoint with its params and query. */
function endpointUrl(
  endpoint: Endpoint,
  input: { params?: Record<string, string | number>; query?: object },
): string {
  const url = new URL(buildPath(endpoint.path, input.params), `${apiOrigin()}/`);
  for (const [key, value] of Object.entries(toQuery(input.query))) url.searchParams.set(key, value);
  return url.toString();
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as Partial<ApiErrorBody> | undefined;
  return new ApiError(response.status, body?.message ?? ERROR_MESSAGES.internal, body);
}

/**
 * Downloads the file of a `download: true` endpoint: streams the body (constant work per chunk),
 * reports bytes and, for CSV, the rows received against `X-Total-Count` (or `expectedRows` when the
 * header is not readable), then saves it through a Blob and an object URL.
 */
export async function downloadFile<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  onProgress: (progress: DownloadProgress) => void = () => {},
  options: { signal?: AbortSignal; expectedRows?: number; fallbackName?: string; save?: boolean } = {},
): Promise<DownloadResult> {
  if (!endpoint.download) throw new Error(`${endpoint.path} is not a download endpoint`);
  const url = endpointUrl(endpoint, input as { params?: Record<string, string | number>; query?: object });
  const request = async () => {
    const headers = await authHeaders({ accept: DOWNLOAD_ACCEPT });
    try {
      return await fetch(url, {
        headers,
        credentials: 'include',
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch {
      throw new ApiError(0, ERROR_MESSAGES.network);
    }
  };
  const sentWith = token;
  let response = await request();
  if (response.status === 401 && sentWith !== null) {
    // The access token was replaced by a refresh elsewhere (see replacedToken): renew once, try again.
    const error = await errorOf(response);
    if (!replacedToken(error, sentWith)) throw error;
    if (token === sentWith) await refreshAccessToken().catch(() => Promise.reject(error));
    response = await request();
  }
  if (!response.ok || !response.body) throw await errorOf(response);
  const result = await readDownload(response, onProgress, options);
  // `save: false`: the caller shows the file (a photo's thumbnail) instead of saving it.
  if (options.save !== false) saveBlob(result.blob, result.fileName);
  return result;
}
