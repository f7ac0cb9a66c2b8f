import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { StaffDocumentSchema } from '@portale/shared/documents';
import { readStored } from '../src/lib/file-store.ts';
import { sweepOrphanFiles } from '../src/lib/file-sweep.ts';
import { S3FileStore } from '../src/lib/s3-file-store.ts';
import { buildTestApp, sqlRows, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';
import {
  addDetectorSite,
  DEMO_DETECTOR,
  loggedInClients,
  plannedVisit,
  userIdOf,
} from './field-work-harness.ts';

/**
 * The S3 adapter of the file store (decision 030) against a real S3 server on this machine: s3rver
 * (a Node S3 server, on 127.0.0.1 and a free port, stopped after). Production uses MinIO or a real
 * bucket through the same SDK calls.
 */
const BUCKET = 'portale-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdfOfSize = (size: number) =>
  Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), Buffer.alloc(size - 9, 0x41)]);
const limit = (maxBytes: number) => ({ maxBytes, tooLarge: () => new Error('troppo grande') });

/** `bytes` in pieces of `chunk` bytes, as a request body arrives. */
function pieces(bytes: Buffer, chunk = 64 * 1024): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(bytes.subarray(i, i + chunk));
  return Readable.from(parts);
}

let server: S3rver;
let endpoint: string;
const directory = mkdtempSync(join(tmpdir(), 'portale-s3rver-'));
let store: S3FileStore;

async function objects(): Promise<string[]> {
  const page = await store.client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

beforeAll(async () => {
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  store = new S3FileStore({ bucket: BUCKET, endpoint, region: 'us-east-1', credentials: CREDENTIALS });
});
afterAll(async () => {
  store?.close();
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('S3 file store (decision 030) on a real S3 server', () => {
  it('round-trips a small file and a multipart one (past one 5 MB part), with SHA-256 and size computed while streaming', async () => {
    for (const bytes of [Buffer.from('contenuto di prova '.repeat(1000)), pdfOfSize(11 * 1024 * 1024 + 17)]) {
      const stored = await store.put(pieces(bytes), limit(bytes.length));
      expect(stored).toMatchObject({
        sha256: sha256(bytes),
        sizeBytes: bytes.length,
        head: bytes.subarray(0, 16),
      });
      expect(await objects()).toContain(`${stored.key.slice(0, 2)}/${stored.key}`);
      expect((await readStored(store, stored.key)).equals(bytes)).toBe(true);
      const listed = [];
      for await (const file of store.list()) listed.push(file);
      expect(listed).toContainEqual({ key: stored.key, modifiedAt: expect.any(Date) });
      await store.remove(stored.key);
      await store.remove(stored.key); // idempotent
      await expect(store.open(stored.key)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    expect(await objects()).toEqual([]);
  }, 60_000);

  it('answers ENOENT for an unknown or malformed key', async () => {
    await expect(store.open('0123456789abcdef0123456789abcdef')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.open('../../etc/passwd')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a file past the limit or a body that fails leaves nothing in the bucket (small and multipart)', async () => {
    await expect(store.put(pieces(Buffer.alloc(1200)), limit(1000))).rejects.toThrow('troppo grande');
    await expect(store.put(pieces(Buffer.alloc(12 * 1024 * 1024)), limit(11 * 1024 * 1024))).rejects.toThrow(
      'troppo grande',
    );
    async function* broken() {
      yield Buffer.alloc(6 * 1024 * 1024, 1);
      yield Buffer.alloc(1024, 2);
      throw new Error('connessione interrotta');
    }
    await expect(store.put(broken(), limit(50 * 1024 * 1024))).rejects.toThrow('connessione interrotta');
    expect(await objects()).toEqual([]);
  }, 60_000);

  it('an upload to a bucket that does not exist fails and leaves nothing', async () => {
    const wrong = new S3FileStore({
      bucket: 'non-esiste',
      endpoint,
      region: 'us-east-1',
      credentials: CREDENTIALS,
    });
    try {
      await expect(wrong.put(pieces(Buffer.alloc(2000)), limit(10_000))).rejects.toThrow();
    } finally {
      wrong.close();
    }
    expect(await objects()).toEqual([]);
  });
});

describe('uploads through the API with FILE_STORE=s3', () => {
  let t: TestApp;
  let staff: ApiClient;

  beforeAll(async () => {
    t = await buildTestApp({
      FILE_STORE: 's3',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    });
    staff = new ApiClient(t, nextIp());
    expect((await staff.login('cromos@demo.test')).statusCode).toBe(200);
  }, 120_000);
  afterAll(() => t?.close());

  it('stores a staff document in the bucket, streams it back and replaces it (the old object goes); a refused upload leaves nothing', async () => {
    expect(t.app.files).toBeInstanceOf(S3FileStore);
    const bytes = pdfOfSize(300_000);
    const res = await staff.send('POST', '/api/documents?title=Guida%20S3&category=guide', {
      payload: bytes,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const doc = StaffDocumentSchema.parse(res.json());
    const [row] = await sqlRows<{ file_key: string; sha256: string }>(
      t,
      sql`select file_key, sha256 from public_documents where id = ${doc.id}`,
    );
    expect(row!.sha256).toBe(sha256(bytes));
    expect(await objects()).toEqual([`${row!.file_key.slice(0, 2)}/${row!.file_key}`]);

    const download = await staff.get(`/api/documents/${doc.id}/file`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);

    // Not a PDF: refused, and the streamed object is removed before the answer.
    expect(
      (
        await staff.send('POST', '/api/documents?title=Altro&category=guide', {
          payload: Buffer.from('non sono un pdf'),
          headers: { 'content-type': 'application/pdf' },
        })
      ).statusCode,
    ).toBe(422);
    expect(await objects()).toHaveLength(1);

    const replacement = pdfOfSize(2000);
    expect(
      (
        await staff.send('PUT', `/api/documents/${doc.id}/file`, {
          payload: replacement,
          headers: { 'content-type': 'application/pdf' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await objects()).toHaveLength(1);
    expect(await objects()).not.toContain(`${row!.file_key.slice(0, 2)}/${row!.file_key}`);
    expect((await staff.get(`/api/documents/${doc.id}/file`)).rawPayload.equals(replacement)).toBe(true);

    // The sweep works on the bucket too: an object no row names goes once old enough, the document's stays.
    const orphan = await t.app.files.put(pieces(pdfOfSize(1000)), limit(10_000));
    expect(await sweepOrphanFiles(t.database.db, t.app.files, { graceMs: 3_600_000 })).toMatchObject({
      scanned: 2,
      removed: 0,
      recent: 2,
    });
    expect(
      await sweepOrphanFiles(t.database.db, t.app.files, {
        graceMs: 3_600_000,
        now: new Date(Date.now() + 2 * 3_600_000),
      }),
    ).toMatchObject({ scanned: 2, removed: 1 });
    expect(await objects()).not.toContain(`${orphan.key.slice(0, 2)}/${orphan.key}`);
    expect((await staff.get(`/api/documents/${doc.id}/file`)).rawPayload.equals(replacement)).toBe(true);
  }, 60_000);

  it('lands a report photo uploaded with tus in the bucket; a photo refused by its magic bytes leaves nothing', async () => {
    const detectorId = await userIdOf(t, DEMO_DETECTOR);
    const siteId = await addDetectorSite(t, {
      ministryCode: 'S3F0000001',
      name: 'Plesso S3',
      detectorUserId: detectorId,
    });
    const detector = (await loggedInClients(t, [DEMO_DETECTOR])).get(DEMO_DETECTOR)!;
    const visitId = await plannedVisit(t, siteId, detectorId);
    const clientReportId = '5f0c3a52-7d0e-4b8e-9a51-2f6f3f7c9d11';
    const report = { report: 'Visita svolta, foto nel bucket.', teachersMet: [], clientReportId };
    expect((await detector.post(`/api/visits/${visitId}/report`, report)).statusCode).toBe(200);
    const before = (await objects()).length;
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const send = async (index: number, bytes: Buffer) => {
      const created = await detector.send('POST', '/api/report-photo-uploads', {
        headers: {
          'tus-resumable': '1.0.0',
          'upload-length': String(bytes.length),
          'upload-metadata': `clientReportId ${b64(clientReportId)},index ${b64(String(index))}`,
        },
      });
      expect(created.statusCode).toBe(201);
      return detector.send('PATCH', created.headers.location as string, {
        headers: {
          'tus-resumable': '1.0.0',
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        payload: bytes,
      });
    };
    const photo = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(6000, 0x42)]);
    expect((await send(0, photo)).statusCode).toBe(204);
    const [row] = await sqlRows<{ file_key: string }>(
      t,
      sql`select file_key from visit_report_photos where client_report_id = ${clientReportId}`,
    );
    expect(await objects()).toContain(`${row!.file_key.slice(0, 2)}/${row!.file_key}`);
    expect((await readStored(t.app.files, row!.file_key)).equals(photo)).toBe(true);
    expect((await send(1, pdfOfSize(3000))).statusCode).toBe(415);
    expect(await objects()).toHaveLength(before + 1);
  }, 60_000);
});
