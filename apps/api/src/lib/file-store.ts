import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';

/** A file written to the store: its key (kept in the database row), SHA-256, size and first bytes. */
export interface StoredFile {
  key: string;
  sha256: string;
  sizeBytes: number;
  /** The first bytes (up to 16), for checking the real type by its magic bytes. */
  head: Buffer;
}

export interface PutOptions {
  /** The write stops, leaves nothing behind and rejects with `tooLarge()` as soon as the file grows past this. */
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * Where uploaded and generated files live (decision 030): never in the database, whose embedded
 * variant has one connection that a 10 MB `bytea` write held for tens of seconds. The disk store is
 * the default; an object store (S3-compatible) implements the same three calls.
 */
export interface FileStore {
  /** Streams `source` to the store, hashing and counting as it goes; a file appears only once it is whole. */
  put(source: AsyncIterable<Buffer | Uint8Array | string>, options: PutOptions): Promise<StoredFile>;
  /** The stored bytes as a stream; rejects with code `ENOENT` when the key is unknown. */
  open(key: string): Promise<NodeJS.ReadableStream>;
  /** Removes a file; a missing file is not an error (removal is idempotent). */
  remove(key: string): Promise<void>;
}

const KEY = /^[0-9a-f]{32}$/;
const HEAD_BYTES = 16;

/**
 * Files under `dir`, named by a random id (`ab/ab12…`, 32 hex digits): written to `dir/tmp/` first
 * and renamed into place when complete, so a reader never sees half a file and a crash leaves only
 * temporary files (removed at the next start).
 */
export class DiskFileStore implements FileStore {
  private ready: Promise<void> | undefined;

  constructor(private readonly dir: string) {}

  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(join(this.dir, 'tmp'), { recursive: true });
      // Leftovers of a process that stopped mid-write (an hour old: on a shared volume, another
      // instance's upload in progress is younger).
      const tmp = join(this.dir, 'tmp');
      for (const name of await readdir(tmp)) {
        const info = await stat(join(tmp, name)).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs > 3_600_000) await rm(join(tmp, name), { force: true });
      }
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw Object.assign(new Error(`invalid file key ${key}`), { code: 'ENOENT' });
    return join(this.dir, key.slice(0, 2), key);
  }

  async put(source: AsyncIterable<Buffer | Uint8Array | string>, options: PutOptions): Promise<StoredFile> {
    await this.prepare();
    const key = randomUUID().replace(/-/g, '');
    const temp = join(this.dir, 'tmp', `${key}.part`);
    const out = createWriteStream(temp, { flags: 'wx' });
    const hash = createHash('sha256');
    const headChunks: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    try {
      for await (const piece of source) {
        const chunk = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
        size += chunk.length;
        if (size > options.maxBytes) throw options.tooLarge();
        hash.update(chunk);
        if (headLength < HEAD_BYTES) {
          headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
          headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
        }
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await rename(temp, this.pathOf(key));
    } catch (error) {
      // Closed first: a stream destroyed before its file was opened would otherwise create it after the unlink.
      out.destroy();
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    return { key, sha256: hash.digest('hex'), sizeBytes: size, head: Buffer.concat(headChunks) };
  }

  async open(key: string): Promise<ReadStream> {
    const path = this.pathOf(key);
    await stat(path);
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    if (!KEY.test(key)) return;
    await rm(this.pathOf(key), { force: true });
  }
}

/** Reads a stored file whole (for small files the server itself reads, e.g. to verify a signature). */
export async function readStored(store: FileStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await store.open(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
