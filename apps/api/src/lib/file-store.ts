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
 * the default; the object store (`S3FileStore`, `FILE_STORE=s3`) implements the same calls.
 */
export interface FileStore {
  /** Streams `source` to the store, hashing and counting as it goes; a file appears only once it is whole. */
  put(source: AsyncIterable<Buffer | Uint8Array | string>, options: PutOptions): Promise<StoredFile>;
  /** The stored bytes as a stream; rejects with code `ENOENT` when the key is unknown. */
  open(key: string): Promise<NodeJS.ReadableStream>;
  /** Removes a file; a missing file is not an error (removal is idempotent). */
  remove(key: string): Promise<void>;
  /** Every whole file of the store, with when it was written (for the sweep of files no row names). */
  list(): AsyncIterable<ListedFile>;
  /** Frees the store's connections (called when the API closes). */
  close?(): void;
}

/** A file of the store as `list` names it. */
export interface ListedFile {
  key: string;
  modifiedAt: Date;
}

/** A store key: 32 hex digits (a random 128-bit id). */
export const FILE_KEY = /^[0-9a-f]{32}$/;
const KEY = FILE_KEY;
export const HEAD_BYTES = 16;

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
        const chunk =
          typeof piece === 'string'
            ? Buffer.from(piece)
            : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
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

  async *list(): AsyncIterable<ListedFile> {
    const folders = await readdir(this.dir).catch((error: { code?: string }) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    for (const folder of folders) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      for (const name of await readdir(join(this.dir, folder)).catch(() => [] as string[])) {
        if (!KEY.test(name) || !name.startsWith(folder)) continue;
        const info = await stat(join(this.dir, folder, name)).catch(() => undefined);
        if (info?.isFile()) yield { key: name, modifiedAt: info.mtime };
      }
    }
  }
}

/** The settings that choose and configure the store (env.ts). */
export interface FileStoreSettings {
  FILE_STORE: 'disk' | 's3';
  FILE_STORE_DIR: string;
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_PREFIX: string;
}

/**
 * The store the settings name: files on disk under FILE_STORE_DIR (default), or an S3-compatible
 * bucket (`FILE_STORE=s3`; the SDK is loaded only then).
 */
export async function createFileStore(env: FileStoreSettings): Promise<FileStore> {
  if (env.FILE_STORE === 'disk') return new DiskFileStore(env.FILE_STORE_DIR);
  const { S3FileStore } = await import('./s3-file-store.ts');
  return new S3FileStore({
    bucket: env.S3_BUCKET!,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    ...(env.S3_FORCE_PATH_STYLE === undefined ? {} : { forcePathStyle: env.S3_FORCE_PATH_STYLE }),
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
    prefix: env.S3_PREFIX,
  });
}

/** Reads a stored file whole (for small files the server itself reads, e.g. to verify a signature). */
export async function readStored(store: FileStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await store.open(key)) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
