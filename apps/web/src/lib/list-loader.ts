import type { Endpoint, EndpointInput, EndpointOutput } from '@portale/shared/http';
import { ApiError, callApi } from './api-client.ts';

/** A 422 on a list: the API's Italian message and its per-field messages (first of each field). */
export interface ListProblem {
  message: string;
  errors: Record<string, string>;
}

/** What a list page's loader returns: the URL's query (strings, for the filter form) and the page or the problem. */
export interface ListLoaderData<E extends Endpoint> {
  query: Record<string, string>;
  result: EndpointOutput<E> | null;
  problem: ListProblem | null;
}

/** The query parameters an endpoint's contract knows (its query schema's keys). */
export function queryKeysOf(endpoint: Endpoint): string[] {
  const shape = (endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

/** The URL's search params limited to `keys`, first value of each, empty values left out. */
export function pickQuery(search: URLSearchParams, keys: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const key of keys) {
    const value = search.get(key);
    if (value !== null && value.trim() !== '') query[key] = value;
  }
  return query;
}

/** The problem a 422 (or 400) shows beside the filters; `null` for any other error (an error screen). */
export function problemOf(error: unknown): ListProblem | null {
  if (!(error instanceof ApiError) || (error.status !== 422 && error.status !== 400)) return null;
  const errors: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.body?.errors ?? {}))
    if (messages[0]) errors[field] = messages[0];
  return { message: error.message, errors };
}

/** `work`'s answer, or `null` when the API refused the filters (the page shows the problem once, beside them). */
export async function unlessInvalid<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (problemOf(error)) return null;
    throw error;
  }
}

/**
 * The loader of a list page, or of any page driven by filters in the URL (map, progress): the URL's
 * search params become the endpoint's query, sent as the user wrote them (the API validates); a 422
 * comes back as a problem shown in the page, not an error screen.
 */
export async function loadList<E extends Endpoint>(
  endpoint: E,
  request: Request,
): Promise<ListLoaderData<E>> {
  const query = pickQuery(new URL(request.url).searchParams, queryKeysOf(endpoint));
  try {
    // The query goes as the URL wrote it (strings): the contract's schema parses it on the API.
    const result = await callApi(endpoint, { query } as unknown as EndpointInput<E>, {
      signal: request.signal,
    });
    return { query, result, problem: null };
  } catch (error) {
    const problem = problemOf(error);
    if (problem) return { query, result: null, problem };
    throw error;
  }
}
