import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { DetailedError, Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_DEFAULTS } from '@portale/shared/http';
import { REPORT_PHOTO_UPLOAD_PATH } from '@portale/shared/field-work';
import { visitReportPhotos } from '../../db/schema/index.ts';
import { readStored } from '../../lib/file-store.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import type { ApiClient } from '../../../test/http-client.ts';
import {
  addDetectorSite,
  addSecondDetector,
  DEMO_DETECTOR,
  loggedInClients,
  plannedVisit,
} from '../../../test/field-work-harness.ts';

// Issue 39, the photos (decision 055): the real tus client (`tus-js-client`, the one the browser uses)
// against the real API on a port: an upload interrupted after its first part resumes from the server's
// offset with the kept upload URL, and a replay of the same photo is answered "già ricevuta".

let t: TestApp;
let endpoint: string;
let detector: ApiClient;
let detectorId: number;
let siteId: number;

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What the browser sends: the bearer, the XSRF token and its cookie. */
function credentials(client: ApiClient): Record<string, string> {
  const xsrf = client.cookie(HTTP_DEFAULTS.xsrfCookie)!;
  return {
    authorization: `Bearer ${client.token!}`,
    [HTTP_DEFAULTS.xsrfHeader]: xsrf,
    cookie: `${HTTP_DEFAULTS.xsrfCookie}=${xsrf}`,
  };
}

interface Run {
  url: string | null;
  accepted: number[];
  error?: DetailedError;
}

/** One tus upload of `bytes` in 1000-byte parts; `stopAfter` parts, then abort (the network dropped). */
function tusUpload(
  bytes: Buffer,
  metadata: Record<string, string>,
  options: { uploadUrl?: string | null; stopAfter?: number } = {},
): Promise<Run> {
  const run: Run = { url: null, accepted: [] };
  return new Promise((resolve) => {
    const upload = new Upload(bytes, {
      endpoint,
      uploadUrl: options.uploadUrl ?? null,
      metadata,
      chunkSize: 1000,
      retryDelays: null,
      headers: credentials(detector),
      storeFingerprintForResuming: false,
      onUploadUrlAvailable: () => {
        run.url = upload.url;
      },
      onChunkComplete: (_size, accepted) => {
        run.accepted.push(accepted);
        if (options.stopAfter !== undefined && run.accepted.length >= options.stopAfter)
          void upload.abort().then(() => resolve(run));
      },
      onSuccess: () => resolve(run),
      onError: (error) => {
        run.error = error as DetailedError;
        resolve(run);
      },
    });
    upload.start();
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  ({ detectorId } = await addSecondDetector(t, '+393330000996'));
  siteId = await addDetectorSite(t, {
    ministryCode: 'FOT0000002',
    name: 'Plesso tus',
    detectorUserId: detectorId,
  });
  detector = (await loggedInClients(t, [DEMO_DETECTOR])).get(DEMO_DETECTOR)!;
  await detector.csrf();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  endpoint = `${address}${REPORT_PHOTO_UPLOAD_PATH}`;
}, 180_000);
afterAll(() => t.close());

describe('tus-js-client against the API', () => {
  it('resumes an interrupted upload from its offset, lands one photo, and a replay is "già ricevuta"', async () => {
    const visitId = await plannedVisit(t, siteId, detectorId);
    const clientReportId = randomUUID();
    const sent = await detector.post(`/api/visits/${visitId}/report`, {
      report: 'Visita svolta, foto del cortile.',
      teachersMet: [],
      clientReportId,
    });
    expect(sent.statusCode).toBe(200);
    const bytes = randomBytes(3500);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    const metadata = { clientReportId, index: '0', filetype: 'image/jpeg', sha256: sha(bytes) };

    const cut = await tusUpload(bytes, metadata, { stopAfter: 2 });
    expect(cut.error).toBeUndefined();
    expect(cut.accepted).toEqual([1000, 2000]);
    expect(cut.url).toContain(`${REPORT_PHOTO_UPLOAD_PATH}/${clientReportId}_0_`);
    const rows = () =>
      t.database.db
        .select()
        .from(visitReportPhotos)
        .where(eq(visitReportPhotos.clientReportId, clientReportId));
    expect(await rows()).toHaveLength(0);

    // After a reload: the same URL (kept in IndexedDB by the browser) goes on from byte 2000.
    const resumed = await tusUpload(bytes, metadata, { uploadUrl: cut.url });
    expect(resumed.error).toBeUndefined();
    expect(resumed.accepted).toEqual([3000, 3500]);
    const [row] = await rows();
    expect(row).toMatchObject({ photoIndex: 0, sizeBytes: 3500, sha256: sha(bytes) });
    expect((await readStored(t.app.files, row!.fileKey!)).equals(bytes)).toBe(true);

    // The answer was lost, the browser sends again: the server has it, nothing is stored twice.
    const replay = await tusUpload(bytes, metadata);
    expect(replay.error?.originalResponse?.getStatus()).toBe(409);
    expect(JSON.parse(replay.error!.originalResponse!.getBody())).toMatchObject({
      code: 'photo_already_received',
    });
    expect(await rows()).toHaveLength(1);
  });
});
