import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isSessionPermission, type UploadEndpoint } from '@portale/shared/http';
import { HttpError } from '../lib/http-error.ts';
import { discardUnclaimedUploads, Upload, uploadParser } from '../lib/uploads.ts';
import { requireAuth, requireGrant, type RequestCheck } from './authorization.ts';

/**
 * File types told by their first bytes (magic bytes), whatever the file's name or declared type says:
 * the type it is kept and served as, and the extension of its stored name.
 */
export const FILE_SIGNATURES = {
  pdf: { type: 'application/pdf', ext: 'pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  png: { type: 'image/png', ext: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  jpeg: { type: 'image/jpeg', ext: 'jpg', bytes: [0xff, 0xd8, 0xff] },
} as const;

export type FileSignature = (typeof FILE_SIGNATURES)[keyof typeof FILE_SIGNATURES];

/** Whether `head` (a file's first bytes) starts with the signature's magic bytes. */
export function hasSignature(head: Uint8Array, signature: FileSignature): boolean {
  return (
    head.length >= signature.bytes.length && signature.bytes.every((byte, index) => head[index] === byte)
  );
}

/** The first of `accepted` whose magic bytes `head` starts with (none: undefined). */
export function sniffFile(head: Uint8Array, accepted: readonly FileSignature[]): FileSignature | undefined {
  return accepted.find((signature) => hasSignature(head, signature));
}

export interface UploadOptions {
  /** The plugin's upload routes: their contracts' `upload.types` are read as files, their permission guards the body. */
  endpoints: readonly UploadEndpoint[];
  /** The size cap, checked on the declared length before reading and on the bytes as they arrive. */
  maxBytes: number;
  /** The Italian message of the 413 answered past the cap. */
  tooLargeMessage: string;
  /**
   * Where the body goes: `store` streams it to the file store (decision 030; the handler gets an
   * `Upload` to claim, an unclaimed one is removed before the answer goes); `memory` reads it into a
   * `Buffer` (a file that must be parsed whole before it is kept, such as a signed document).
   */
  keep: 'store' | 'memory';
}

/** The check of the session or the grant of an upload route, as its contract says (none for a public one). */
function guardOf(endpoint: UploadEndpoint): RequestCheck | undefined {
  const { permission } = endpoint;
  if (permission === 'public') return undefined;
  if (isSessionPermission(permission))
    return requireAuth({ allowPendingPasswordChange: permission === 'signed-in-pending-password' });
  return requireGrant(permission, endpoint.conditionsOfPage);
}

/** Reads a raw body into memory: refused (413) from its declared length before reading, or as soon as it grows past the cap. */
function memoryParser(maxBytes: number, tooLarge: () => Error) {
  return async (request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> => {
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  };
}

/**
 * The file uploads of one plugin, in one place: the body of the listed routes is the file itself (no
 * multipart), of the media types their contracts declare. Only on this plugin's routes (a content-type
 * parser is per plugin), with its own size limit: 413 from the declared length before anything is
 * read, or as soon as the body grows past it. Who may upload is checked before the body is read (a
 * guest's megabytes are never read); the route's own checks still run as usual after parsing.
 */
export function registerUploads(app: FastifyInstance, options: UploadOptions): void {
  const { endpoints, maxBytes, tooLargeMessage, keep } = options;
  const tooLarge = () => new HttpError(413, 'payload_too_large', tooLargeMessage);
  const types = [...new Set(endpoints.flatMap((endpoint) => endpoint.upload.types))];
  const parser = keep === 'store' ? uploadParser(maxBytes, tooLarge) : memoryParser(maxBytes, tooLarge);
  app.addContentTypeParser(types, { bodyLimit: maxBytes }, parser);
  if (keep === 'store') discardUnclaimedUploads(app);
  const guards = new Map<string, RequestCheck>();
  for (const endpoint of endpoints) {
    const guard = guardOf(endpoint);
    if (guard) guards.set(`${endpoint.method} ${endpoint.path}`, guard);
  }
  app.addHook('preParsing', async (request) => {
    guards.get(`${request.method} ${request.routeOptions.url}`)?.(request);
  });
}

export interface ReceivedFileErrors {
  /** No file arrived (no body, or a media type the route does not read). */
  missing: () => Error;
  /** The file is empty (`missing` when not given). */
  empty?: () => Error;
}

/** The file of a `keep: 'store'` upload route (streamed to the file store), or the route's error. */
export function storedUploadOf(body: unknown, errors: ReceivedFileErrors): Upload {
  if (!(body instanceof Upload)) throw errors.missing();
  if (body.file.sizeBytes === 0) throw (errors.empty ?? errors.missing)();
  return body;
}

/** The bytes of a `keep: 'memory'` upload route, or the route's error. */
export function uploadedBytesOf(body: unknown, errors: ReceivedFileErrors): Buffer {
  if (!Buffer.isBuffer(body)) throw errors.missing();
  if (body.length === 0) throw (errors.empty ?? errors.missing)();
  return body;
}

export { Upload };
