// Issue 32: a long URL is an Italian 431 and an oversized declared body an Italian 413, answered
// before the body is read, for every content type, on a real listening server (raw HTTP: inject
// bypasses Node's parser and sockets).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES } from '@portale/shared/documents';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient } from './http-client.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A socket error seen before the answer was complete (e.g. ECONNRESET). */
  error?: string;
  /** Bytes of the body written before the answer began. */
  writtenBeforeAnswer: number;
}

/**
 * Sends `head` then up to `send` bytes of body in 64 KiB chunks (stopping once an answer arrives when
 * `stopOnAnswer`), and reads the answer until the server closes or the declared length is read.
 */
function raw(head: string, { send = 0, stopOnAnswer = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let written = 0;
    let writtenBeforeAnswer = -1;
    let error: string | undefined;
    const finish = () => {
      const text = received.toString('utf8');
      const [rawHead = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = rawHead.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      socket.destroy();
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
        ...(error ? { error } : {}),
        writtenBeforeAnswer: writtenBeforeAnswer < 0 ? written : writtenBeforeAnswer,
      });
    };
    const complete = () => {
      const text = received.toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      if (at < 0) return false;
      const length = /content-length:\s*(\d+)/i.exec(text.slice(0, at));
      return length ? Buffer.byteLength(text.slice(at + 4)) >= Number(length[1]) : false;
    };
    socket.on('data', (chunk) => {
      if (writtenBeforeAnswer < 0) writtenBeforeAnswer = written;
      received = Buffer.concat([received, chunk]);
      if (complete()) finish();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', finish);
    socket.write(head);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (written < send && !(stopOnAnswer && writtenBeforeAnswer >= 0) && !socket.destroyed) {
        const n = Math.min(chunk.length, send - written);
        written += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

const request = (method: string, path: string, headers: Record<string, string | number>) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;

describe('431: a URL or headers too long', () => {
  it.each([
    ['a long URL', request('GET', `/api/health?q=${'a'.repeat(20_000)}`, {})],
    ['a long header', request('GET', '/api/health', { 'x-filler': 'b'.repeat(20_000) })],
  ])('%s gets the Italian error shape, not Node’s English', async (_label, head) => {
    const res = await raw(head);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(res.body)).toEqual({
      statusCode: 431,
      code: 'request_header_too_large',
      message: 'La richiesta è troppo lunga: l’indirizzo o le intestazioni superano il limite consentito.',
    });
  });

  it('a URL within the limit reaches the routes (here: an undeclared query field, 400 in Italian)', async () => {
    const res = await raw(request('GET', `/api/health?q=${'a'.repeat(8_000)}`, { connection: 'close' }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'unknown_field' });
  });
});

describe('413: a declared body larger than the route reads', () => {
  const TOO_LARGE = {
    statusCode: 413,
    code: 'payload_too_large',
    message: 'I dati inviati sono troppo grandi.',
  };
  it.each([
    'application/json',
    'multipart/form-data; boundary=----x',
    'application/pdf',
    'application/octet-stream',
    'text/plain',
    'application/x-www-form-urlencoded',
  ])(
    '%s: Italian 413, readable by the client (no connection reset), before the body is read',
    async (contentType) => {
      // Declared 3 MB on a JSON route (limit 1 MB), all of it sent: the client reads the answer.
      const sent = await raw(
        request('POST', '/api/auth/login', {
          'content-type': contentType,
          'content-length': 3 * 1024 * 1024,
        }),
        { send: 3 * 1024 * 1024 },
      );
      expect(sent.error).toBeUndefined();
      expect(sent.status).toBe(413);
      expect(JSON.parse(sent.body)).toEqual(TOO_LARGE);
      // Declared 200 MB: the answer comes while the body has hardly begun.
      const early = await raw(
        request('POST', '/api/auth/login', {
          'content-type': contentType,
          'content-length': 200 * 1024 * 1024,
        }),
        { send: 200 * 1024 * 1024, stopOnAnswer: true },
      );
      expect(early.status).toBe(413);
      expect(JSON.parse(early.body)).toEqual(TOO_LARGE);
      expect(early.writtenBeforeAnswer).toBeLessThan(8 * 1024 * 1024);
    },
  );

  it('an upload route keeps its own larger limit and message, and its 413 is readable too', async () => {
    const staff = new ApiClient(t, '127.0.0.1');
    expect((await staff.login('superadmin@demo.test')).statusCode).toBe(200);
    const signedIn = {
      authorization: `Bearer ${staff.token}`,
      cookie: `XSRF-TOKEN=${staff.cookie('XSRF-TOKEN')}`,
      'x-xsrf-token': staff.cookie('XSRF-TOKEN')!,
      'content-type': 'application/pdf',
    };
    // 2 MB is over the JSON limit but within the documents' own: it reaches the route (not a PDF: 422).
    const fits = await raw(
      request('POST', '/api/documents?title=Prova', {
        ...signedIn,
        'content-length': 2 * 1024 * 1024,
        connection: 'close',
      }),
      { send: 2 * 1024 * 1024 },
    );
    expect(fits.status).not.toBe(413);
    const huge = await raw(
      request('POST', '/api/documents?title=Prova', { ...signedIn, 'content-length': 500 * 1024 * 1024 }),
      { send: 500 * 1024 * 1024, stopOnAnswer: true },
    );
    expect(huge.error).toBeUndefined();
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({
      statusCode: 413,
      code: 'payload_too_large',
      message: DOCUMENT_MESSAGES.tooLarge,
    });
    expect(huge.writtenBeforeAnswer).toBeLessThan(8 * 1024 * 1024);
  });

  it('a body within the limit is read as before', async () => {
    const res = await raw(
      request('POST', '/api/auth/login', {
        'content-type': 'application/json',
        'content-length': 2,
        connection: 'close',
      }) + '{}',
    );
    expect([403, 419, 422]).toContain(res.status);
  });
});
