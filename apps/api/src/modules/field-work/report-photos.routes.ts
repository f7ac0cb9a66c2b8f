import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FileStore as TusFileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import {
  appendReportPhotoUpload,
  cancelReportPhotoUpload,
  createReportPhotoUpload,
  deleteVisitPhoto,
  downloadVisitPhoto,
  listVisitPhotos,
  REPORT_PHOTO_LIMITS,
  REPORT_PHOTO_MESSAGES as M,
  REPORT_PHOTO_UPLOAD_PATH as PATH,
  reportPhotoUploadOffset,
  VISIT_MESSAGES,
} from '@portale/shared/field-work';
import type { Endpoint } from '@portale/shared/http';
import { HttpError } from '../../lib/http-error.ts';
import { PeriodicJob } from '../../lib/periodic-job.ts';
import { openStored } from '../../lib/uploads.ts';
import { authOf } from '../../plugins/authorization.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { signedInActorOf } from '../../plugins/service-context.ts';
import * as deletion from './report-photo-deletion.service.ts';
import * as photos from './report-photos.repository.ts';
import * as service from './report-photos.service.ts';
import * as visits from './visits.repository.ts';

/** Uploads left unfinished for a day are removed (tus expiration; `cleanUpExpiredUploads`). */
const UPLOAD_EXPIRY_MS = 24 * 3_600_000;

/** The tus `Upload-Metadata` header: `key base64value` pairs separated by commas. */
export function tusMetadataOf(header: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof header !== 'string') return out;
  for (const pair of header.split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key) out[key] = value ? Buffer.from(value, 'base64').toString('utf8') : '';
  }
  return out;
}

/** The tus protocol's own refusals (written by `@tus/server` itself) as the API's one error shape, in Italian. */
const TUS_ERRORS: Record<number, [code: string, message: string]> = {
  400: ['invalid_upload_headers', M.badHeaders],
  403: ['invalid_upload_content_type', M.badContentType],
  404: ['upload_not_found', M.uploadGone],
  409: ['upload_offset_conflict', M.offsetConflict],
  410: ['upload_gone', M.uploadGone],
  412: ['unsupported_tus_version', M.tusVersion],
  413: ['photo_too_large', M.tooLarge],
};

function tusErrorBody(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { statusCode?: unknown };
    if (parsed.statusCode === status) return body; // a refusal of ours (`tusRefusal`)
  } catch {
    // tus's own plain text
  }
  const [code, message] = TUS_ERRORS[status] ?? ['upload_failed', M.uploadFailed];
  return JSON.stringify({ statusCode: status, code, message });
}

/**
 * A protocol route's headers, checked with its contract before tus sees the request, refused with the
 * status tus gives them (412 for the version, 400 for another header) and an Italian body.
 */
function checkTusHeaders(endpoint: Endpoint, request: FastifyRequest): void {
  const parsed = endpoint.headers?.safeParse(request.headers);
  if (!parsed || parsed.success) return;
  const versionWrong = parsed.error.issues.some((issue) => issue.path[0] === 'tus-resumable');
  throw versionWrong
    ? new HttpError(412, 'unsupported_tus_version', M.tusVersion)
    : new HttpError(400, 'invalid_upload_headers', M.badHeaders);
}

function visitOf(request: RequestWithParams<{ visitId: number }>) {
  return visits
    .visitOwners(request.server.db, request.params.visitId)
    .then((owners) => owners ?? Promise.reject(new HttpError(404, 'not_found', VISIT_MESSAGES.notFound)));
}

/**
 * The photos of visit reports (issue 39, decision 055): the tus protocol (`@tus/server`) for resumable
 * uploads bound to a report's client id and a photo's index, checked in Fastify before tus sees the
 * request; whole uploads land in the file store (decision 030). Then the list and the download.
 */
export async function reportPhotoRoutes(app: FastifyInstance): Promise<void> {
  const directory = app.env.PHOTO_UPLOAD_DIR ?? join(app.env.FILE_STORE_DIR, 'tus-uploads');
  const datastore = new TusFileStore({ directory, expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const tus = new TusServer({
    path: PATH,
    datastore,
    relativeLocation: true,
    maxSize: REPORT_PHOTO_LIMITS.maxBytes,
    allowedOrigins: app.env.webOrigins,
    allowedCredentials: true,
    // The upload is bound to its report and index by its id (checked on every later request).
    namingFunction: (_req, metadata) => {
      const meta = service.photoMetaOf(metadata as Record<string, string>);
      return `${meta.clientReportId}_${meta.index}_${crypto.randomUUID().replace(/-/g, '')}`;
    },
    onUploadFinish: async (_req, upload) => {
      try {
        await service.landPhoto(
          app,
          service.photoMetaOf(upload.metadata as Record<string, string>),
          join(directory, upload.id),
        );
        return {};
      } catch (error) {
        if (error instanceof HttpError) throw service.tusRefusal(error);
        throw error;
      } finally {
        // Landed in the file store or refused: the upload in progress is gone either way.
        await datastore.remove(upload.id).catch(() => undefined);
      }
    },
  });
  // Every refusal tus writes itself (a wrong offset, an expired upload…) in the one error shape, in Italian.
  const write = tus.write.bind(tus);
  tus.write = (context, headers, status, body = '') => {
    if (status < 400) return write(context, headers, status, body);
    headers.set('Content-Type', 'application/json; charset=utf-8');
    return write(context, headers, status, tusErrorBody(status, body));
  };
  // Uploads abandoned for a day (a phone that never came back) are removed every hour.
  const cleanup = new PeriodicJob<number>({
    intervalMs: app.env.NODE_ENV === 'test' ? 0 : 3_600_000,
    log: app.log,
    run: () => tus.cleanUpExpiredUploads(),
    report: (removed, log) => {
      if (removed > 0) log.info({ removed }, 'expired photo uploads removed');
    },
    failure: 'expired photo uploads not removed',
  });
  app.addHook('onReady', async () => cleanup.start());
  app.addHook('onClose', async () => cleanup.stop());

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    // The API's own headers (security); tus writes its CORS headers itself.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined && !name.startsWith('access-control-')) reply.raw.setHeader(name, value);
    await tus.handle(request.raw, reply.raw);
  };

  await app.register(async (scope) => {
    // The body of a PATCH goes to tus untouched.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    // The contracts check the session and the grant (401/403), then the report's owner (404/403) before
    // the headers; tus reads the request only after that.
    registerEndpoint(
      scope,
      createReportPhotoUpload,
      {
        resource: (request) =>
          service.photoOwnersOf(
            app,
            service.photoMetaOf(tusMetadataOf(request.headers['upload-metadata'])).clientReportId,
          ),
      },
      async (request, reply) => {
        checkTusHeaders(createReportPhotoUpload, request);
        const meta = service.photoMetaOf(tusMetadataOf(request.headers['upload-metadata']));
        await service.checkUploadStart(
          app,
          authOf(request).user.id,
          meta,
          Number(request.headers['upload-length']),
        );
        return forward(request, reply);
      },
    );
    for (const endpoint of [reportPhotoUploadOffset, appendReportPhotoUpload, cancelReportPhotoUpload])
      registerEndpoint(
        scope,
        endpoint,
        {
          resource: (request) => {
            const bound = service.photoOfUploadId(request.params.uploadId);
            if (!bound) throw new HttpError(404, 'not_found', M.notFound);
            return service.photoOwnersOf(app, bound.clientReportId);
          },
        },
        async (request, reply) => {
          checkTusHeaders(endpoint, request);
          return forward(request, reply);
        },
      );
  });

  registerEndpoint(app, listVisitPhotos, { resource: visitOf }, async (request) => {
    const user = authOf(request).user;
    const rows = await photos.photosOfVisit(app.db, request.params.visitId, request.query.clientReportId);
    return {
      items: rows.map((row) => ({
        id: row.id,
        clientReportId: row.clientReportId,
        index: row.index,
        mediaType: row.mediaType as 'image/jpeg' | 'image/png',
        sizeBytes: row.sizeBytes,
        createdAt: row.createdAt.toISOString(),
        deletable: deletion.mayDeletePhoto(user, row),
      })),
    };
  });

  registerEndpoint(app, deleteVisitPhoto, { resource: visitOf }, async (request) => {
    const { visitId, photoId } = request.params;
    await deletion.deleteVisitPhoto(app, authOf(request).user, signedInActorOf(request), visitId, photoId);
  });

  registerEndpoint(app, downloadVisitPhoto, { resource: visitOf }, async (request, reply) => {
    const { visitId, photoId } = request.params;
    const notFound = () => new HttpError(404, 'not_found', M.notFound);
    const photo = await photos.photoOfVisit(app.db, visitId, photoId);
    if (!photo?.fileKey) throw notFound();
    const ext = photo.mediaType === 'image/png' ? 'png' : 'jpg';
    return reply
      .header('cache-control', 'private, max-age=3600')
      .header('content-disposition', `inline; filename="visita-${visitId}-foto-${photo.index + 1}.${ext}"`)
      .header('content-length', String(photo.sizeBytes))
      .type(photo.mediaType)
      .send(await openStored(app, photo.fileKey, notFound));
  });
}
