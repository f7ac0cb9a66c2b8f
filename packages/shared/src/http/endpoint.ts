import type { z } from 'zod';
import type { PermissionCheck } from '../auth/permissions.ts';
import type { PageId } from '../pages/routes.ts';

/** `HEAD`: a protocol's own HEAD (tus asks an upload's offset); a GET route answers HEAD without a contract. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One API endpoint, described once: the API registers its route from it (params, query, body and
 * response validated and documented by the same schemas) and the web calls it through one typed
 * client that validates the response. `response` is the 2xx body; a file download sets `download`.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Status of a success (200 unless said; 302: a browser redirect, such as a login at an identity provider). */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The endpoint answers a file (CSV, XLSX, PDF): the web downloads it instead of parsing JSON. */
  download?: true;
  /**
   * Media types of a file body, for the OpenAPI document: `response` of a download (a list export's
   * CSV/XLSX are known from its `format`), `request` of an upload read by its route's own parser.
   */
  media?: { response?: readonly string[]; request?: readonly string[] };
  /**
   * The body is a file (no multipart, no JSON): the media types it may be sent as. The API reads it
   * with `registerUploads` (plugins/uploads.ts), the web sends a `Blob` through `callApi`. Defined
   * with `defineUploadEndpoint`, which keeps the field in the contract's type.
   */
  upload?: UploadSpec;
  /**
   * Request headers a protocol route reads (tus: `Tus-Resumable`, `Upload-Length`…), header name in
   * lower case → schema of its value: documented in OpenAPI as header parameters and checked by the
   * route before the protocol's server sees the request (JSON contracts read no header of their own).
   */
  headers?: z.ZodObject;
  /** Headers of the success answer a client reads (tus: `Location`, `Upload-Offset`), name → description. */
  responseHeaders?: Readonly<Record<string, string>>;
  /**
   * Error statuses beyond those its permission, input and method imply (documented in OpenAPI): a
   * public route that checks its own credential answers 401.
   */
  errors?: readonly number[];
  /** Non-2xx bodies other than the one error shape, documented and serialised too (a health check's 503). */
  otherResponses?: Record<number, z.ZodType>;
  /**
   * Who may call it, enforced by the API for every route registered from this contract; the web reads
   * it to show or hide. See `EndpointPermission`.
   */
  permission: EndpointPermission;
  /**
   * The page (id of the route table) whose guards apply before a permission check, instead of the
   * portal conditions: the adhesion page lets a principal who has not signed yet in (decision 010).
   */
  conditionsOfPage?: PageId;
}

/** The media types a file body may be sent as (an upload endpoint). */
export interface UploadSpec {
  types: readonly string[];
}

/**
 * Who may call an endpoint (decision 009):
 * - a `PermissionCheck` (`'read:institute'`…): `can(user, permission, record)` after the portal
 *   conditions (password changed, contacts verified, principal document signed);
 * - `'signed-in'`: any signed-in user, without the portal conditions (the user's own account: they
 *   are how a registration is completed), but not while a password change is pending;
 * - `'signed-in-pending-password'`: the same, also while a password change is pending (change
 *   password, `me`);
 * - `'public'`: anyone, on purpose.
 */
export type EndpointPermission = PermissionCheck | 'public' | 'signed-in' | 'signed-in-pending-password';

/** The session-only permissions (no grant checked). */
export const SESSION_PERMISSIONS = ['signed-in', 'signed-in-pending-password'] as const;
export type SessionPermission = (typeof SESSION_PERMISSIONS)[number];
export const isSessionPermission = (permission: EndpointPermission): permission is SessionPermission =>
  (SESSION_PERMISSIONS as readonly string[]).includes(permission);

/** Defines an endpoint, keeping its schema types. */
export function defineEndpoint<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}

/** An endpoint whose body is a file (`upload` is always there). */
export type UploadEndpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> = Endpoint<P, Q, z.ZodType, R> & { upload: UploadSpec };

/** Defines an upload endpoint (its body is a file of one of `upload.types`), keeping its schema types. */
export function defineUploadEndpoint<P extends z.ZodType, Q extends z.ZodType, R extends z.ZodType>(
  endpoint: Omit<Endpoint<P, Q, z.ZodType, R>, 'body'> & { upload: UploadSpec },
): UploadEndpoint<P, Q, R> {
  return endpoint;
}

/**
 * The body of an upload as the caller gives it: the file, and the media type to send it as (by
 * default the file's own type when the contract accepts it, `application/octet-stream` otherwise).
 */
export interface UploadInput {
  body: Blob;
  contentType?: string;
}

/** Input of an endpoint as the caller gives it (before parsing). */
// A schema the endpoint does not define is inferred as the bare `z.ZodType` default (the properties
// themselves are optional in `Endpoint`, so `undefined extends E['params']` would hold for all).
export type EndpointInput<E> =
  E extends Endpoint<infer P, infer Q, infer B, z.ZodType>
    ? (z.ZodType extends P ? { params?: never } : { params: z.input<P> }) &
        (z.ZodType extends Q ? { query?: never } : { query?: z.input<Q> }) &
        (E extends { upload: UploadSpec }
          ? UploadInput
          : z.ZodType extends B
            ? { body?: never }
            : { body: z.input<B> })
    : never;

/** Output of an endpoint once parsed. */
export type EndpointOutput<E> =
  E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Replaces `:name` segments of a path with encoded values; a missing value throws. */
export function buildPath(path: string, params: Record<string, string | number | undefined> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path param ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}
