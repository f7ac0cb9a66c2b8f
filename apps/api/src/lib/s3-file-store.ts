import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  FILE_KEY,
  HEAD_BYTES,
  type FileStore,
  type ListedFile,
  type PutOptions,
  type StoredFile,
} from './file-store.ts';

export interface S3FileStoreOptions {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, a national cloud's S3 API); AWS S3 when absent. */
  endpoint?: string | undefined;
  region: string;
  /** Bucket in the path (`https://host/bucket/key`): MinIO and most S3-compatible servers want it. */
  forcePathStyle?: boolean;
  /** Explicit credentials; otherwise the SDK's own chain (AWS_ACCESS_KEY_ID…, a profile, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Object names start with this (e.g. `portale/`), so one bucket may hold other things too. */
  prefix?: string;
}

/** `ab/ab12…` under the prefix: the same layout as the disk store. */
const objectName = (prefix: string, key: string) => `${prefix}${key.slice(0, 2)}/${key}`;

function notFound(key: string): Error {
  return Object.assign(new Error(`no stored file ${key}`), { code: 'ENOENT' });
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return (
    e?.name === 'NoSuchKey' ||
    e?.name === 'NotFound' ||
    e?.Code === 'NoSuchKey' ||
    e?.$metadata?.httpStatusCode === 404
  );
}

/**
 * The file store on an S3-compatible bucket (decision 030, `FILE_STORE=s3`): the same three calls as
 * the disk store. `put` streams the body through `@aws-sdk/lib-storage`'s `Upload` (a multipart
 * upload of 5 MB parts once the body is larger than one part, a single PutObject otherwise) while it
 * hashes and counts; a body past the limit, or any failure, aborts the upload, which leaves no object
 * (an object appears only when the upload completes). `open` is `GetObject`'s body, `remove` is
 * `DeleteObject` (idempotent), `list` pages through `ListObjectsV2` (for the orphan sweep).
 */
export class S3FileStore implements FileStore {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3FileStoreOptions) {
    const config: S3ClientConfig = {
      region: options.region,
      forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
      // An S3-compatible server may not know the SDK's newer default checksums: send them only where required.
      ...(options.endpoint
        ? {
            endpoint: options.endpoint,
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    };
    this.client = new S3Client(config);
    this.bucket = options.bucket;
    this.prefix = options.prefix ?? '';
  }

  async put(source: AsyncIterable<Buffer | Uint8Array | string>, options: PutOptions): Promise<StoredFile> {
    const key = randomUUID().replace(/-/g, '');
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectName(this.prefix, key), Body: body },
      leavePartsOnError: false,
    });
    // Started at once (it reads `body` as the chunks arrive); its failure is seen below.
    const done = upload.done();
    let uploadError: unknown;
    done.catch((error: unknown) => {
      uploadError = error;
      body.destroy();
    });
    const hash = createHash('sha256');
    const headChunks: Buffer[] = [];
    let headLength = 0;
    let size = 0;
    try {
      for await (const piece of source) {
        if (uploadError) throw uploadError;
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
        if (!body.write(chunk)) await Promise.race([once(body, 'drain'), done]);
      }
      body.end();
      await done;
    } catch (error) {
      // Nothing is left: a multipart upload is aborted (its parts deleted), a single put never happened.
      await upload.abort().catch(() => undefined);
      body.destroy();
      await done.catch(() => undefined);
      // A single PutObject may have completed just before the abort: removing is idempotent.
      await this.remove(key).catch(() => undefined);
      throw error;
    }
    return { key, sha256: hash.digest('hex'), sizeBytes: size, head: Buffer.concat(headChunks) };
  }

  async open(key: string): Promise<Readable> {
    if (!FILE_KEY.test(key)) throw notFound(key);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectName(this.prefix, key) }),
      );
      if (!answer.Body) throw notFound(key);
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) throw notFound(key);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    if (!FILE_KEY.test(key)) return;
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.bucket, Key: objectName(this.prefix, key) }),
      );
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async *list(): AsyncIterable<ListedFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.prefix.length).split('/').pop() ?? '';
        if (FILE_KEY.test(key) && object.Key === objectName(this.prefix, key))
          yield { key, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }
}
