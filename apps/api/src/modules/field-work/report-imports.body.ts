import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DRAFT_IMPORT_MAX_BODY_BYTES,
  importDetectorReports,
  REPORT_IMPORT_MESSAGES,
} from '@portale/shared/field-work';
import { Gate } from '../../lib/gates.ts';
import { HttpError } from '../../lib/http-error.ts';
import { requireGrant } from '../../plugins/authorization.ts';

/**
 * The JSON body of the drafts import (decision 051, amendment): the exported file with its photos in
 * base64 is up to `DRAFT_IMPORT_MAX_BODY_BYTES` (64 MB), past the server's 1 MB. Only in `scope` (a
 * content-type parser is per plugin):
 * - who may import is checked before a byte is read (a guest's or a detector's megabytes never are:
 *   401/403 as on every route);
 * - a declared `Content-Length` past the bound, or a body that grows past it, is an Italian 413 that
 *   says what to do (export report by report), never a 500;
 * - the body is read into memory once, then parsed by Fastify's own JSON parser (prototype
 *   poisoning refused as elsewhere). Peak memory of one import is a few times the body (the body,
 *   the file's text, the parsed file, one decoded photo at a time): about 250 MB at the bound;
 * - so one import at a time per API process, from before its body is read until it is answered (or
 *   its connection drops): another one meanwhile is an Italian 429 with Retry-After, and its body is
 *   never read. Imports are rare (a broken device), so none waits in a queue.
 */
export function largeJsonBody(scope: FastifyInstance): void {
  const tooLarge = () => new HttpError(413, 'payload_too_large', REPORT_IMPORT_MESSAGES.tooLarge);
  // The contract's permission (`manage:detector`), as its route checks it in `preValidation`.
  const guard = requireGrant('manage:detector');
  const path = importDetectorReports.path;
  const gate = new Gate(1);
  const held = new WeakMap<FastifyRequest, () => void>();
  const release = async (request: FastifyRequest) => {
    held.get(request)?.();
    held.delete(request);
  };
  scope.addHook('preParsing', async (request) => {
    if (request.routeOptions.url !== path) return;
    guard(request);
    const leave = gate.tryEnter();
    if (!leave) throw new HttpError(429, 'import_busy', REPORT_IMPORT_MESSAGES.busy, { 'retry-after': '10' });
    held.set(request, leave);
  });
  scope.addHook('onResponse', release);
  scope.addHook('onRequestAbort', release);
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser(
    'application/json',
    { bodyLimit: DRAFT_IMPORT_MAX_BODY_BYTES },
    async (request: FastifyRequest, payload: NodeJS.ReadableStream) => {
      if (Number(request.headers['content-length'] ?? 0) > DRAFT_IMPORT_MAX_BODY_BYTES) throw tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > DRAFT_IMPORT_MAX_BODY_BYTES) throw tooLarge();
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      chunks.length = 0;
      return new Promise<unknown>((resolve, reject) =>
        parseJson(request, text, (error, body) => (error ? reject(error) : resolve(body))),
      );
    },
  );
}
