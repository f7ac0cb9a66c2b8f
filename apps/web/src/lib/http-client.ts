import { FetchError, ofetch, type FetchOptions } from 'ofetch';
import { ERROR_MESSAGES, HTTP_DEFAULTS, type ApiErrorBody } from '@portale/shared/http';

/** An API error with the server's Italian message (or one of ours for timeouts and network failures). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: Partial<ApiErrorBody>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface HttpClientOptions {
  baseURL: string;
  /** The X-XSRF-TOKEN value, read from the XSRF-TOKEN cookie. */
  xsrfToken?: () => string | undefined;
  timeout?: number;
}

type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface RequestOptions {
  method?: Method;
  body?: Record<string, unknown> | unknown[];
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The HTTP client of seed-spec §7, with its documented fixes: one retry on 408, 409, 425, 429 and 5xx
 * only for idempotent methods; the 25 s timeout really aborts; the XSRF header goes only to our API.
 */
export function createHttpClient(options: HttpClientOptions) {
  const apiOrigin = new URL(options.baseURL).origin;
  const client = ofetch.create({
    baseURL: options.baseURL,
    timeout: options.timeout ?? HTTP_DEFAULTS.timeoutMs,
    retryStatusCodes: [...HTTP_DEFAULTS.retryStatusCodes],
    retryDelay: 0,
    credentials: 'include',
    headers: { accept: HTTP_DEFAULTS.accept },
    onRequest({ request, options: req }) {
      const url = typeof request === 'string' ? new URL(request, options.baseURL) : new URL(request.url);
      const token = options.xsrfToken?.();
      if (token && url.origin === apiOrigin) req.headers.set(HTTP_DEFAULTS.xsrfHeader, token);
    },
  });

  return async function request<T>(path: string, init: RequestOptions = {}): Promise<T> {
    const method = init.method ?? 'GET';
    const fetchOptions: FetchOptions<'json'> = {
      method,
      retry: HTTP_DEFAULTS.idempotentMethods.includes(method) ? HTTP_DEFAULTS.retry : 0,
      ...(init.body !== undefined ? { body: init.body } : {}),
      ...(init.query ? { query: init.query } : {}),
      ...(init.headers ? { headers: init.headers } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    };
    try {
      return (await client<T>(path, fetchOptions)) as T;
    } catch (error) {
      throw toApiError(error);
    }
  };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

function toApiError(error: unknown): ApiError {
  if (error instanceof FetchError) {
    const body = (error.data ?? undefined) as Partial<ApiErrorBody> | undefined;
    if (error.status) return new ApiError(error.status, body?.message ?? ERROR_MESSAGES.internal, body);
    const isTimeout =
      error.cause instanceof Error &&
      (error.cause.name === 'TimeoutError' || error.cause.name === 'AbortError');
    return new ApiError(0, isTimeout ? ERROR_MESSAGES.timeout : ERROR_MESSAGES.network);
  }
  return new ApiError(0, ERROR_MESSAGES.network);
}
