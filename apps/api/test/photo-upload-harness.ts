// The report photos' tests' common ground (issue 39, decision 055): an app with a small photo quota, a
// second detector and a plesso of the demo detector, one client per demo account, a visit reported
// with a client id, and the tus requests that send a photo.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { REPORT_PHOTO_UPLOAD_PATH as TUS } from '@portale/shared/field-work';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import {
  addDetectorSite,
  addSecondDetector,
  DEMO_DETECTOR,
  loggedInClients,
  OTHER_DETECTOR,
  plannedVisit,
} from './field-work-harness.ts';
import type { ApiClient } from './http-client.ts';

export const PHOTO_STAFF = ['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test'];
export const PHOTO_OTHERS = [
  'dirigente@demo.test',
  'referente@demo.test',
  'insegnante@demo.test',
  'utenti@demo.test',
];
/** The detectors' photo quota in these tests (MB): small enough to reach. */
export const PHOTO_QUOTA_MB = 1;

/** A JPEG as far as its magic bytes go, `size` bytes long. */
export function fakeJpeg(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}
export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const b64 = (value: string) => Buffer.from(value).toString('base64');

/** A tus `Upload-Metadata` header for a report's photo (with the SHA-256 of `bytes` when given). */
export function tusMetadata(clientReportId: string, index: number, bytes?: Buffer, type = 'image/jpeg') {
  const pairs = [
    `clientReportId ${b64(clientReportId)}`,
    `index ${b64(String(index))}`,
    `filetype ${b64(type)}`,
  ];
  if (bytes) pairs.push(`sha256 ${b64(sha256Hex(bytes))}`);
  return pairs.join(',');
}

export const TUS_HEADERS = { 'tus-resumable': '1.0.0' };

/** The tus creation request of an upload of `length` bytes. */
export const tusCreate = (client: ApiClient, length: number, meta: string) =>
  client.send('POST', TUS, {
    headers: { ...TUS_HEADERS, 'upload-length': String(length), 'upload-metadata': meta },
  });

/** A tus PATCH of `chunk` at `offset`. */
export const tusPatch = (
  client: ApiClient,
  location: string,
  offset: number,
  chunk: Buffer,
  headers: Record<string, string> = {},
) =>
  client.send('PATCH', location, {
    headers: {
      ...TUS_HEADERS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
      ...headers,
    },
    payload: chunk,
  });

/** A whole photo sent with tus in one part: the creation must succeed; the PATCH's answer is returned. */
export async function tusUpload(client: ApiClient, clientReportId: string, index: number, bytes: Buffer) {
  const created = await tusCreate(client, bytes.length, tusMetadata(clientReportId, index, bytes));
  expect(created.statusCode, created.body).toBe(201);
  return tusPatch(client, created.headers.location as string, 0, bytes);
}

export interface PhotoRig {
  t: TestApp;
  detectorId: number;
  siteId: number;
  as(email: string): ApiClient;
  detector(): ApiClient;
  /** A visit of the rig's plesso reported by the demo detector with a client id: the photos' report. */
  sentReport(text: string): Promise<{ visitId: number; clientReportId: string }>;
  close(): Promise<void>;
}

/** The app, the second detector (`phone`), a plesso of the demo detector and the logged-in clients. */
export async function photoRig(site: {
  phone: string;
  ministryCode: string;
  name: string;
}): Promise<PhotoRig> {
  const t = await buildTestApp({ DETECTOR_PHOTO_QUOTA_MB: String(PHOTO_QUOTA_MB) });
  const { detectorId } = await addSecondDetector(t, site.phone);
  const siteId = await addDetectorSite(t, {
    ministryCode: site.ministryCode,
    name: site.name,
    detectorUserId: detectorId,
  });
  const clients = await loggedInClients(t, [DEMO_DETECTOR, OTHER_DETECTOR, ...PHOTO_STAFF, ...PHOTO_OTHERS]);
  const as = (email: string) => clients.get(email)!;
  return {
    t,
    detectorId,
    siteId,
    as,
    detector: () => as(DEMO_DETECTOR),
    async sentReport(text) {
      const visitId = await plannedVisit(t, siteId, detectorId);
      const clientReportId = randomUUID();
      const res = await as(DEMO_DETECTOR).post(`/api/visits/${visitId}/report`, {
        report: text,
        teachersMet: [],
        clientReportId,
      });
      expect(res.statusCode, res.body).toBe(200);
      return { visitId, clientReportId };
    },
    close: () => t.close(),
  };
}
