import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ADHESION_CORRECTION_MESSAGES,
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
import { withTransaction } from '../../db/transaction.ts';
import { writeAudit } from '../../lib/audit.ts';
import { registerEndpoint } from '../../plugins/endpoint-route.ts';
import { fieldError } from '../../lib/field-errors.ts';
import { HttpError } from '../../lib/http-error.ts';
import { openStored, removeStored } from '../../lib/uploads.ts';
import { authOf, requireGrant } from '../../plugins/authorization.ts';
import {
  confirmOnlineSignature,
  currentAdhesion,
  currentDocument,
  ensureAdhesionDocument,
  MESSAGES,
  nextStepOf,
  prepareDocument,
  recordSignature,
  startOnlineSignature,
} from './adhesion-signing.service.ts';
import * as repo from './adhesions.repository.ts';
import {
  SIGNED_UPLOAD_MAX_BYTES,
  sniffSignedFormat,
  verifySignedAdhesion,
} from './signature-verification.ts';

/** Content types the signed file may arrive with (the body is the file itself), as its contract documents them. */
const UPLOAD_TYPES = [...uploadSignedAdhesion.media!.request!];
const TOO_LARGE = `Il file supera la dimensione massima di ${Math.round(SIGNED_UPLOAD_MAX_BYTES / 1_048_576)} MB: carica il documento firmato senza allegati aggiuntivi.`;
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

async function instituteOf(request: FastifyRequest) {
  const { instituteId } = request.params as { instituteId: number };
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

/** Reads the raw body of an upload: refused (413) from its declared length before reading, or as soon as it grows past the limit. */
async function readLimited(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > SIGNED_UPLOAD_MAX_BYTES) throw new HttpError(413, 'payload_too_large', TOO_LARGE);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > SIGNED_UPLOAD_MAX_BYTES) throw new HttpError(413, 'payload_too_large', TOO_LARGE);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The formal adhesion: the document, its online signature with an SMS code, the upload of a signed file. */
export async function adhesionRoutes(app: FastifyInstance) {
  const secret = app.env.APP_SECRET;
  const webUrl = app.env.publicWebUrl;
  const codeLimit = { rateLimit: { max: app.env.ACCOUNT_RATE_LIMIT_MAX, timeWindow: '1 minute' } };

  // The signed file is the body (no multipart): only on this plugin's routes, with its own size limit.
  app.addContentTypeParser(UPLOAD_TYPES, { bodyLimit: SIGNED_UPLOAD_MAX_BYTES }, readLimited);
  // Who may upload is checked before the body is read (a guest's 15 MB are never read).
  const uploadGuard = requireGrant(
    uploadSignedAdhesion.permission as 'sign:adhesion',
    uploadSignedAdhesion.conditionsOfPage,
  );
  app.addHook('preParsing', async (request) => {
    if (request.routeOptions.url === uploadSignedAdhesion.path) uploadGuard(request);
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
      const userId = authOf(request).user.id;
      const now = app.clock.now();
      const wanted = request.body.schoolSiteIds;
      await withTransaction(app.db, async (tx) => {
        const data = await repo.findAdhesionData(tx, viewer.instituteId, { lock: true });
        if (!data) throw new HttpError(404, 'not_found', MESSAGES.noInstitute);
        if (data.adhesionState !== 'da_correggere')
          throw new HttpError(409, 'adhesion_not_correctable', ADHESION_CORRECTION_MESSAGES.notCorrectable);
        const sites = await repo.instituteSchoolSites(tx, viewer.instituteId);
        const own = new Set(sites.map((s) => s.id));
        if (wanted.some((id) => !own.has(id)))
          throw fieldError('schoolSiteIds', ADHESION_CORRECTION_MESSAGES.siteNotOfInstitute);
        const before = sites.filter((s) => s.participating).map((s) => s.id);
        await repo.setParticipatingSites(tx, viewer.instituteId, wanted, now);
        const document = await ensureAdhesionDocument(tx, viewer.instituteId, userId, now);
        await writeAudit(
          tx,
          {
            action: 'adhesion.data.corrected',
            actorUserId: userId,
            entity: 'institute',
            entityId: viewer.instituteId,
            before: { schoolSiteIds: before },
            after: {
              schoolSiteIds: [...wanted].sort((a, b) => a - b),
              documentVersion: document.version,
              documentSha256: document.sha256,
            },
            ip: request.ip,
          },
          now,
        );
      });
      return currentAdhesion(app.db, { ...viewer, userId }, now, SIGNED_UPLOAD_MAX_BYTES);
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
    const viewer = viewerOf(request);
    const userId = authOf(request).user.id;
    const body = request.body as unknown;
    if (!Buffer.isBuffer(body) || body.length === 0) throw new HttpError(422, 'empty_file', EMPTY_FILE);
    // Magic bytes before any parsing: a file that is neither a PDF nor a p7m is refused as it is.
    const format = sniffSignedFormat(body);
    if (!format) {
      // The verifier answers its own "unsupported format" message from the sniff alone, before any parsing.
      const refused = await verifySignedAdhesion({
        file: body,
        expectedDocument: new Uint8Array(0),
        documentCreatedAt: app.clock.now(),
        expectedTaxCode: '',
        now: app.clock.now(),
        trustedList: null,
        revocation: app.revocation,
      });
      throw new HttpError(
        422,
        'unsupported_format',
        refused.ok ? 'Formato del file non supportato.' : refused.message,
      );
    }
    const data = await repo.findAdhesionData(app.db, viewer.instituteId);
    if (!data?.principal || data.principal.id !== userId)
      throw new HttpError(403, 'forbidden', MESSAGES.onlyPrincipal);
    const latest = await repo.findLatestDocument(app.db, viewer.instituteId);
    if (!latest) throw new HttpError(409, 'no_document', MESSAGES.noDocument);
    if (!data.principal.taxCode) throw new HttpError(422, 'tax_code_missing', MESSAGES.noTaxCode);
    const expected = await repo.findDocumentPdf(app.db, latest.id);
    const now = app.clock.now();
    const check = await verifySignedAdhesion({
      file: body,
      expectedDocument: expected!.pdf,
      documentCreatedAt: latest.createdAt,
      expectedTaxCode: data.principal.taxCode.toUpperCase(),
      now,
      trustedList: await app.trustedList.current(),
      revocation: app.revocation,
    });
    const unavailable = check.ok
      ? false
      : check.code === 'trust_list_unavailable' || check.code === 'revocation_unavailable';
    if (!check.ok) throw new HttpError(unavailable ? 503 : 422, check.code, check.message);
    // The verified file goes to the file store (decision 030); the signature row keeps its key.
    const stored = await app.files.put(Readable.from([body]), {
      maxBytes: SIGNED_UPLOAD_MAX_BYTES,
      tooLarge: () => new HttpError(413, 'payload_too_large', TOO_LARGE),
    });
    const signatureId = await recordSignature(app.db, webUrl, {
      instituteId: viewer.instituteId,
      userId,
      method: check.format,
      documentSha256: latest.sha256,
      at: now,
      ip: request.ip,
      file: {
        key: stored.key,
        sha256: stored.sha256,
        name: request.query.filename,
        signerName: check.signerName,
        signerTaxCode: check.signerTaxCode ?? data.principal.taxCode.toUpperCase(),
        signedAt: check.signedAt,
        certificate: {
          subject: check.certificate.subject,
          issuer: check.certificate.issuer,
          serial: check.certificate.serialNumber,
        },
        report: check.report,
      },
    }).catch(async (error: unknown) => {
      await removeStored(app, request, [stored.key]);
      throw error;
    });
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
