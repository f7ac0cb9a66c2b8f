import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorBody } from '@portale/shared/http';
import { HttpError } from '../lib/http-error.ts';

/**
 * The longest request line plus headers Node reads (bytes): a longer URL or header block is answered
 * 431 in Italian by `clientError` below, never by Node's or Fastify's English text.
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** After an early 413 the body still on its way is read and dropped up to this much, then the socket is closed. */
const LINGER_MAX_BYTES = 4 * 1024 * 1024;
const LINGER_MS = 5_000;

const CLIENT_ERRORS: Record<string, ApiErrorBody> = {
  HPE_HEADER_OVERFLOW: {
    statusCode: 431,
    code: 'request_header_too_large',
    message: 'La richiesta è troppo lunga: l’indirizzo o le intestazioni superano il limite consentito.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    statusCode: 408,
    code: 'request_timeout',
    message: 'La richiesta è arrivata troppo lentamente: riprova.',
  },
};
const BAD_REQUEST: ApiErrorBody = {
  statusCode: 400,
  code: 'bad_request',
  message: 'La richiesta non è valida.',
};
const STATUS_LINES: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Errors Node's HTTP parser raises before any request exists (Fastify `clientErrorHandler`): the one
 * Italian error shape, written on the socket, which is then closed (as Node and Fastify do).
 */
export function clientErrorHandler(error: NodeJS.ErrnoException & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const body = CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST;
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${body.statusCode} ${STATUS_LINES[body.statusCode]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}

/** Fastify's context of the request's route (internal): its own body limit and its content-type parsers. */
interface ContentParser {
  bodyLimit?: number;
  asString?: boolean;
  asBuffer?: boolean;
}
interface RouteContext {
  _parserOptions?: { limit?: number | null };
  contentTypeParser?: { getParser(contentType: string): ContentParser | undefined };
}

function contextOf(request: FastifyRequest): RouteContext | undefined {
  const key = Object.getOwnPropertySymbols(request).find((s) => s.description === 'fastify.context');
  return key ? (request as unknown as Record<symbol, RouteContext>)[key] : undefined;
}

/**
 * The most a route reads for this request's content type, as Fastify would enforce it: the route's
 * own `bodyLimit`, else the `bodyLimit` of the parser of that content type (uploads register theirs),
 * else the server's.
 */
export function bodyLimitOf(request: FastifyRequest): { limit: number; ownParser: boolean } {
  const context = contextOf(request);
  const contentType = request.headers['content-type'];
  let parser: ContentParser | undefined;
  try {
    parser = contentType ? context?.contentTypeParser?.getParser(contentType) : undefined;
  } catch {
    parser = undefined;
  }
  // An upload's own parser (a function reading the stream) checks the declared length itself, with
  // the route's own message (e.g. «dimensione massima di 15 MB»): it answers, not this hook.
  const ownParser = Boolean(parser && !parser.asString && !parser.asBuffer);
  const routeLimit = context?._parserOptions?.limit;
  return { limit: routeLimit || (parser?.bodyLimit ?? request.routeOptions.bodyLimit), ownParser };
}

/**
 * Reads and drops what the client still sends after an early answer, so that it reads the answer
 * instead of a connection reset; a client that keeps sending past LINGER_MAX_BYTES or LINGER_MS is
 * cut off.
 */
function drainThenClose(raw: IncomingMessage) {
  const socket = raw.socket as Partial<IncomingMessage['socket']> | undefined;
  // Injected requests (light-my-request) have a stand-in socket that cannot be destroyed.
  const cutOff = () => {
    if (typeof socket?.destroy === 'function') socket.destroy();
  };
  let dropped = 0;
  const timer = setTimeout(cutOff, LINGER_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) cutOff();
  });
  raw.once('end', () => clearTimeout(timer));
  if (typeof socket?.once === 'function') socket.once('close', () => clearTimeout(timer));
}

/**
 * A body whose declared `Content-Length` exceeds what the route reads is refused with the Italian
 * 413 before a byte of it is read, whatever its content type (JSON, multipart, PDF, octet-stream…).
 */
export const requestLimits = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', (request, _reply, done) => {
    const declared = request.headers['content-length'];
    if (declared === undefined) return done();
    const length = Number(declared);
    if (!Number.isFinite(length)) return done();
    const { limit, ownParser } = bodyLimitOf(request);
    if (length <= limit || ownParser) return done();
    drainThenClose(request.raw);
    done(new HttpError(413, 'payload_too_large', 'I dati inviati sono troppo grandi.'));
  });
  // A 413 from a parser (an upload's own, or Fastify's while reading) comes with `Connection: close`
  // and the body still arriving: closing at once resets the connection before the client reads the
  // answer. Drop the rest of the body instead (bounded), as above.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 413 && !request.raw.complete && request.raw.listenerCount('data') === 0) {
      reply.removeHeader('connection');
      drainThenClose(request.raw);
    }
    done(null, payload);
  });
});
