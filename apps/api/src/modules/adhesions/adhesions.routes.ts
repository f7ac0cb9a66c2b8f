import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  correctAdhesionSchoolSites,
  createSignatureChallenge,
  downloadCurrentAdhesionDocument,
  downloadInstituteAdhesionDocument,
  downloadInstituteSignedFile,
  downloadSignatureVerificationReport,
  getCurrentAdhesion,
  getSchoolHome,
  prepareAdhesionDocument,
  signAdhesionOnline,
  uploadSignedAdhesion,
} from '@portale/shared/adhesions';
import { type OwnedResource } from '@portale/shared/auth';
import { ACCESS_MESSAGES } from '@portale/shared/pages';
import { actorOf } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { openStored } from '../../lib/uploads.ts';
import { authOf } from '../../plugins/authorization.ts';
import { registerEndpoint, type RequestWithParams } from '../../plugins/endpoint-route.ts';
import { registerUploads, uploadedBytesOf } from '../../plugins/uploads.ts';
import { currentAdhesion, currentDocument, MESSAGES, prepareDocument } from './adhesion-signing.service.ts';
import { nextStepOf } from './adhesion-next-step.ts';
import { confirmOnlineSignature, startOnlineSignature } from './online-signature.service.ts';
import * as repo from './adhesions.repository.ts';
import { correctSchoolSites, SIGNED_UPLOAD_TOO_LARGE, uploadSignedDocument } from './adhesions.service.ts';
import { SIGNED_UPLOAD_MAX_BYTES } from './signature-verification.ts';

const EMPTY_FILE = 'Il file caricato è vuoto: scegli il documento firmato digitalmente.';

const viewers = new WeakMap<FastifyRequest, repo.ViewerInstitute>();

/** The institute of the signed-in principal or first contact (none: 404), kept for the handler. */
function ownInstitute(owners: 'principal-and-first-contact' | 'principal') {
  return async (request: FastifyRequest): Promise<OwnedResource> => {
    const { user } = authOf(request);
    const chosen = (request.query as { istituto?: number } | undefined)?.istituto;
    if (chosen !== undefined) {
      // These are the viewer's own institutes: someone else's is a 403 for anyone (staff included,
      // whose grants would otherwise let the handler run with no institute of theirs); unknown: 404.
      const owned = await repo.findAdhesionOwners(request.server.db, chosen);
      if (!owned) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
      if (!owned.ownerUserIds.includes(user.id))
        throw new HttpError(403, 'forbidden', ACCESS_MESSAGES.forbidden);
    }
    const viewer = await repo.findViewerInstitute(request.server.db, user.id, chosen);
    if (!viewer) throw new HttpError(404, 'no_institute', MESSAGES.noInstitute);
    viewers.set(request, viewer);
    return {
      ownerUserIds:
        owners === 'principal'
          ? [viewer.principalUserId]
          : [viewer.principalUserId, viewer.firstContactUserId],
    };
  };
}

function viewerOf(request: FastifyRequest): repo.ViewerInstitute {
  const viewer = viewers.get(request);
  if (!viewer) throw new Error('ownInstitute() must run before the handler');
  return viewer;
}

async function instituteOf(request: RequestWithParams<{ instituteId: number }>) {
  const { instituteId } = request.params;
  const owners = await repo.findAdhesionOwners(request.server.db, instituteId);
  if (!owners) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  return owners;
}

/** Sends a stored file as an attachment; the ETag is its SHA-256 (a repeated download may answer 304). */
function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { bytes: Buffer | NodeJS.ReadableStream; sha256: string; name: string; type: string },
) {
  const etag = `"${file.sha256}"`;
  reply
    .header('content-type', file.type)
    .header('content-disposition', `attachment; filename="${file.name.replace(/["\\\r\n]/g, '_')}"`)
    .header('etag', etag)
    .header('cache-control', 'private, no-cache');
  if (request.headers['if-none-match'] === etag) {
    if (!Buffer.isBuffer(file.bytes))
      (file.bytes as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    return reply.status(304).send();
  }
  return Buffer.isBuffer(file.bytes)
    ? reply.header('content-length', String(file.bytes.length)).send(file.bytes)
    : reply.send(file.bytes);
}

async function documentFile(app: FastifyInstance, documentId: number, ministryCode: string) {
  const document = await repo.findDocumentPdf(app.db, documentId);
  if (!document) throw new HttpError(404, 'not_found', MESSAGES.noDocument);
  return {
    bytes: document.pdf,
    sha256: document.sha256,
    name: `adesione-${ministryCode}-v${document.version}.pdf`,
    type: 'application/pdf',
  };
}

/** The formal adhesion: the document, its online signature with an SMS code, the upload of a signed file. */
export async function adhesionRoutes(app: FastifyInstance) {
  const secret = app.env.APP_SECRET;
  const webUrl = app.env.publicWebUrl;
  const codeLimit = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };

  // The signed file is the body, read into memory (it is verified whole before it is kept); who may
  // upload is checked before it is read (a guest's 15 MB are never read).
  registerUploads(app, {
    endpoints: [uploadSignedAdhesion],
    maxBytes: SIGNED_UPLOAD_MAX_BYTES,
    tooLargeMessage: SIGNED_UPLOAD_TOO_LARGE,
    keep: 'memory',
  });

  registerEndpoint(
    app,
    getCurrentAdhesion,
    { resource: ownInstitute('principal-and-first-contact') },
    async (request) => {
      const viewer = viewerOf(request);
      return currentAdhesion(
        app.db,
        { ...viewer, userId: authOf(request).user.id },
        app.clock.now(),
        SIGNED_UPLOAD_MAX_BYTES,
      );
    },
  );

  registerEndpoint(
    app,
    prepareAdhesionDocument,
    { resource: ownInstitute('principal-and-first-contact') },
    async (request) => {
      const viewer = viewerOf(request);
      const userId = authOf(request).user.id;
      const now = app.clock.now();
      await prepareDocument(app.db, viewer.instituteId, userId, now);
      return currentAdhesion(app.db, { ...viewer, userId }, now, SIGNED_UPLOAD_MAX_BYTES);
    },
  );

  // Sent back for corrections: the principal or first contact corrects the participating plessi; the
  // document becomes a new version with the corrected data, to be signed again (issue 35, item 2).
  registerEndpoint(
    app,
    correctAdhesionSchoolSites,
    { resource: ownInstitute('principal-and-first-contact') },
    async (request) => {
      const viewer = viewerOf(request);
      const actor = actorOf(request);
      await correctSchoolSites(app.db, actor, viewer.instituteId, request.body.schoolSiteIds);
      return currentAdhesion(
        app.db,
        { ...viewer, userId: authOf(request).user.id },
        actor.at,
        SIGNED_UPLOAD_MAX_BYTES,
      );
    },
  );

  registerEndpoint(
    app,
    downloadCurrentAdhesionDocument,
    { resource: ownInstitute('principal-and-first-contact') },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const latest = await currentDocument(
        app.db,
        viewer.instituteId,
        authOf(request).user.id,
        app.clock.now(),
      );
      const data = await repo.findAdhesionData(app.db, viewer.instituteId);
      if (!latest || !data) throw new HttpError(404, 'no_document', MESSAGES.noDocument);
      return sendFile(request, reply, await documentFile(app, latest.id, data.ministryCode));
    },
  );

  registerEndpoint(
    app,
    createSignatureChallenge,
    { resource: ownInstitute('principal'), config: codeLimit },
    async (request) => {
      const viewer = viewerOf(request);
      return startOnlineSignature(app.db, secret, {
        instituteId: viewer.instituteId,
        userId: authOf(request).user.id,
        documentSha256: request.body.documentSha256,
        now: app.clock.now(),
        ip: request.ip,
      });
    },
  );

  registerEndpoint(
    app,
    signAdhesionOnline,
    { resource: ownInstitute('principal'), config: codeLimit },
    async (request) => {
      const viewer = viewerOf(request);
      const signatureId = await confirmOnlineSignature(
        app.db,
        { secret, webUrl },
        {
          instituteId: viewer.instituteId,
          userId: authOf(request).user.id,
          ...request.body,
          now: app.clock.now(),
          ip: request.ip,
        },
      );
      return {
        signature: (await repo.findSignature(app.db, signatureId))!,
        adhesionState: 'adesione_firmata' as const,
      };
    },
  );

  registerEndpoint(app, uploadSignedAdhesion, { resource: ownInstitute('principal') }, async (request) => {
    const file = uploadedBytesOf(request.body, {
      missing: () => new HttpError(422, 'empty_file', EMPTY_FILE),
    });
    const signatureId = await uploadSignedDocument(
      {
        db: app.db,
        files: app.files,
        trustedList: app.trustedList,
        revocation: app.revocation,
        webUrl,
        log: request.log,
      },
      actorOf(request),
      { instituteId: viewerOf(request).instituteId, file, fileName: request.query.filename },
    );
    return {
      signature: (await repo.findSignature(app.db, signatureId))!,
      adhesionState: 'adesione_firmata' as const,
    };
  });

  registerEndpoint(
    app,
    getSchoolHome,
    { resource: ownInstitute('principal-and-first-contact') },
    async (request) => {
      const viewer = viewerOf(request);
      const data = await repo.findAdhesionData(app.db, viewer.instituteId);
      if (!data) throw new HttpError(404, 'no_institute', MESSAGES.noInstitute);
      const people = await repo.findSchoolPeople(app.db, viewer.instituteId);
      return {
        viewerRole: viewer.viewerRole,
        institute: {
          id: data.id,
          ministryCode: data.ministryCode,
          name: data.name,
          municipalityName: data.municipalityName,
          province: data.province,
          adhesionState: data.adhesionState,
          adhesionStateChangedAt: data.adhesionStateChangedAt?.toISOString() ?? null,
        },
        nextStep: nextStepOf(data.adhesionState, viewer.viewerRole),
        ...people,
      };
    },
  );

  registerEndpoint(
    app,
    downloadInstituteAdhesionDocument,
    { resource: instituteOf },
    async (request, reply) => {
      const { instituteId } = request.params;
      const data = await repo.findAdhesionData(app.db, instituteId);
      const signed = await repo.findLastSignature(app.db, instituteId);
      const documentId = signed?.documentId ?? (await repo.findLatestDocument(app.db, instituteId))?.id;
      if (!data || documentId === undefined)
        throw new HttpError(404, 'no_document', "L'istituto non ha ancora un documento di adesione.");
      return sendFile(request, reply, await documentFile(app, documentId, data.ministryCode));
    },
  );

  registerEndpoint(
    app,
    downloadSignatureVerificationReport,
    { resource: instituteOf },
    async (request, reply) => {
      const { instituteId, signatureId } = request.params;
      const row = await repo.findVerificationReport(app.db, instituteId, signatureId);
      if (!row) throw new HttpError(404, 'not_found', 'Firma non trovata per questo istituto.');
      if (!row.report) {
        throw new HttpError(
          404,
          'no_verification_report',
          'Per questa firma non c’è un rapporto di verifica: è una firma online con codice SMS, oppure un file caricato prima della verifica delle firme qualificate.',
        );
      }
      const body = Buffer.from(`${JSON.stringify(row.report, null, 2)}\n`);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="verifica-firma-${instituteId}-${signatureId}.json"`,
        )
        .header('cache-control', 'private, no-cache')
        .header('content-length', String(body.length))
        .send(body);
    },
  );

  registerEndpoint(app, downloadInstituteSignedFile, { resource: instituteOf }, async (request, reply) => {
    const { instituteId } = request.params;
    const signed = await repo.findLastSignedFile(app.db, instituteId);
    if (!(signed?.file || signed?.fileKey) || !signed.sha256) {
      throw new HttpError(
        404,
        'no_signed_file',
        signed
          ? "L'ultima firma dell'istituto è stata fatta online: non c'è un file firmato."
          : "L'istituto non ha ancora firmato l'adesione.",
      );
    }
    const detached = signed.formatDetail === 'cades-detached';
    const type = detached
      ? 'application/pkcs7-signature'
      : signed.method === 'cades'
        ? 'application/pkcs7-mime'
        : 'application/pdf';
    const extension = detached ? 'p7s' : signed.method === 'cades' ? 'p7m' : 'pdf';
    const noFile = () =>
      new HttpError(404, 'no_signed_file', "Il file firmato dell'istituto non è più disponibile.");
    const bytes = signed.fileKey ? await openStored(app, signed.fileKey, noFile) : Buffer.from(signed.file!);
    return sendFile(request, reply, {
      bytes,
      sha256: signed.sha256,
      name: signed.fileName ?? `adesione-firmata.${extension}`,
      type,
    });
  });
}
