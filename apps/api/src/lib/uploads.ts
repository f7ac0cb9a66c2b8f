import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StoredFile } from './file-store.ts';

const UPLOAD = Symbol('upload');

/**
 * A request body streamed into the file store by its content-type parser (decision 030): the
 * handler checks it (`file.head` for the magic bytes), records `file.key` in its row and calls
 * `claim()` once that row is committed. An upload nobody claimed (refused, failed validation, a
 * rolled-back transaction) is removed from the store before the answer goes.
 */
export class Upload {
  private claimed = false;
  constructor(readonly file: StoredFile) {}
  claim(): void {
    this.claimed = true;
  }
  get isClaimed(): boolean {
    return this.claimed;
  }
}

type Tracked = FastifyRequest & { [UPLOAD]?: Upload };

/**
 * A content-type parser that streams the body to `app.files`: refused with `tooLarge()` (413) from
 * its declared length before anything is read, or as soon as it grows past `maxBytes` (nothing is
 * left on disk). The database is not touched while the bytes arrive.
 */
export function uploadParser(maxBytes: number, tooLarge: () => Error) {
  return async (request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Upload> => {
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) throw tooLarge();
    const file = await request.server.files.put(payload as AsyncIterable<Buffer>, { maxBytes, tooLarge });
    const upload = new Upload(file);
    (request as Tracked)[UPLOAD] = upload;
    return upload;
  };
}

/** Removes, before each answer goes, the upload its handler did not claim (call once per plugin that parses uploads). */
export function discardUnclaimedUploads(app: FastifyInstance): void {
  const discard = async (request: FastifyRequest) => {
    const upload = (request as Tracked)[UPLOAD];
    if (!upload || upload.isClaimed) return;
    (request as Tracked)[UPLOAD] = undefined;
    await app.files
      .remove(upload.file.key)
      .catch((error: unknown) => request.log.warn({ err: error }, 'unclaimed upload not removed'));
  };
  // Before the answer goes (a client that sees the answer never finds the file still there).
  app.addHook('onSend', async (request, _reply, payload) => {
    await discard(request);
    return payload;
  });
  app.addHook('onResponse', discard);
  app.addHook('onRequestAbort', discard);
}

/** Removes files that a committed change replaced or deleted (a failure is logged: the file is then only unreferenced). */
export async function removeStored(
  app: FastifyInstance,
  request: FastifyRequest,
  keys: (string | null | undefined)[],
): Promise<void> {
  for (const key of keys) {
    if (key)
      await app.files
        .remove(key)
        .catch((error: unknown) => request.log.warn({ err: error, key }, 'stored file not removed'));
  }
}

/** The stored file as a stream; `missing()` (an Italian 404) when the store no longer has it. */
export async function openStored(
  app: FastifyInstance,
  key: string,
  missing: () => Error,
): Promise<NodeJS.ReadableStream> {
  try {
    return await app.files.open(key);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') throw missing();
    throw error;
  }
}
