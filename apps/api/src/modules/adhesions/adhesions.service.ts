import { Readable } from 'node:stream';
import { ADHESION_CORRECTION_MESSAGES } from '@portale/shared/adhesions';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { auditWrite, type Actor } from '../../lib/audit.ts';
import { fieldError } from '../../lib/field-errors.ts';
import type { FileStore } from '../../lib/file-store.ts';
import { HttpError } from '../../lib/http-error.ts';
import { ensureAdhesionDocument, MESSAGES, recordSignature } from './adhesion-signing.service.ts';
import * as repo from './adhesions.repository.ts';
import {
  SIGNED_UPLOAD_MAX_BYTES,
  sniffSignedFormat,
  verifySignedAdhesion,
} from './signature-verification.ts';
import type { RevocationChecker } from './trust/revocation.ts';
import type { TrustedListSource } from './trust/trusted-list-source.ts';

/** The 413 message of a signed file over the limit. */
export const SIGNED_UPLOAD_TOO_LARGE = `Il file supera la dimensione massima di ${Math.round(SIGNED_UPLOAD_MAX_BYTES / 1_048_576)} MB: carica il documento firmato senza allegati aggiuntivi.`;

/**
 * Sent back for corrections: the participating plessi become `wanted` (all of the institute, 422
 * otherwise; 409 unless the adhesion is `da_correggere`) and the document a new version with the
 * corrected data, in one transaction with its audit row (issue 35, item 2).
 */
export function correctSchoolSites(
  db: Db,
  actor: Actor,
  instituteId: number,
  wanted: readonly number[],
): Promise<void> {
  return withTransaction(db, async (tx) => {
    const data = await repo.findAdhesionData(tx, instituteId, { lock: true });
    if (!data) throw new HttpError(404, 'not_found', MESSAGES.noInstitute);
    if (data.adhesionState !== 'da_correggere')
      throw new HttpError(409, 'adhesion_not_correctable', ADHESION_CORRECTION_MESSAGES.notCorrectable);
    const sites = await repo.instituteSchoolSites(tx, instituteId);
    const own = new Set(sites.map((s) => s.id));
    if (wanted.some((id) => !own.has(id)))
      throw fieldError('schoolSiteIds', ADHESION_CORRECTION_MESSAGES.siteNotOfInstitute);
    const before = sites.filter((s) => s.participating).map((s) => s.id);
    await repo.setParticipatingSites(tx, instituteId, [...wanted], actor.at);
    const document = await ensureAdhesionDocument(tx, instituteId, actor.userId, actor.at);
    await auditWrite(tx, actor, {
      action: 'adhesion.data.corrected',
      entity: 'institute',
      entityId: instituteId,
      before: { schoolSiteIds: before },
      after: {
        schoolSiteIds: [...wanted].sort((a, b) => a - b),
        documentVersion: document.version,
        documentSha256: document.sha256,
      },
    });
  });
}

export interface SignedUploadDeps {
  db: Db;
  files: FileStore;
  trustedList: TrustedListSource;
  revocation: RevocationChecker;
  webUrl: string;
  /** Where a stored file that could not be removed after a failure is reported. */
  log: { warn(details: object, message: string): void };
}

/** The 422 of a file that is neither a PDF nor a p7m/p7s, with the verifier's own message. */
async function unsupportedFormat(deps: SignedUploadDeps, file: Buffer, now: Date): Promise<HttpError> {
  // The verifier answers its own "unsupported format" message from the sniff alone, before any parsing.
  const refused = await verifySignedAdhesion({
    file,
    expectedDocument: new Uint8Array(0),
    documentCreatedAt: now,
    expectedTaxCode: '',
    now,
    trustedList: null,
    revocation: deps.revocation,
  });
  return new HttpError(
    422,
    'unsupported_format',
    refused.ok ? 'Formato del file non supportato.' : refused.message,
  );
}

/**
 * A signed document uploaded by the principal (`actor`): the file's format by its magic bytes first,
 * then the signature checked against the institute's latest document, the principal's tax code, the
 * trusted list and revocation (422, or 503 when a trust source is unavailable). The verified file goes
 * to the file store (decision 030) and the signature is recorded (`recordSignature`); the id of the
 * signature.
 */
export async function uploadSignedDocument(
  deps: SignedUploadDeps,
  actor: Actor,
  upload: { instituteId: number; file: Buffer; fileName: string },
): Promise<number> {
  const { db } = deps;
  const { instituteId, file } = upload;
  const now = actor.at;
  // Magic bytes before any parsing: a file that is neither a PDF nor a p7m is refused as it is.
  if (!sniffSignedFormat(file)) throw await unsupportedFormat(deps, file, now);
  const data = await repo.findAdhesionData(db, instituteId);
  if (!data?.principal || data.principal.id !== actor.userId)
    throw new HttpError(403, 'forbidden', MESSAGES.onlyPrincipal);
  const userId = data.principal.id;
  const latest = await repo.findLatestDocument(db, instituteId);
  if (!latest) throw new HttpError(409, 'no_document', MESSAGES.noDocument);
  if (!data.principal.taxCode) throw new HttpError(422, 'tax_code_missing', MESSAGES.noTaxCode);
  const expected = await repo.findDocumentPdf(db, latest.id);
  const check = await verifySignedAdhesion({
    file,
    expectedDocument: expected!.pdf,
    documentCreatedAt: latest.createdAt,
    expectedTaxCode: data.principal.taxCode.toUpperCase(),
    now,
    trustedList: await deps.trustedList.current(),
    revocation: deps.revocation,
  });
  const unavailable = check.ok
    ? false
    : check.code === 'trust_list_unavailable' || check.code === 'revocation_unavailable';
  if (!check.ok) throw new HttpError(unavailable ? 503 : 422, check.code, check.message);
  // The verified file goes to the file store (decision 030); the signature row keeps its key.
  const stored = await deps.files.put(Readable.from([file]), {
    maxBytes: SIGNED_UPLOAD_MAX_BYTES,
    tooLarge: () => new HttpError(413, 'payload_too_large', SIGNED_UPLOAD_TOO_LARGE),
  });
  return recordSignature(db, deps.webUrl, {
    instituteId,
    userId,
    method: check.format,
    documentSha256: latest.sha256,
    at: now,
    ip: actor.ip,
    file: {
      key: stored.key,
      sha256: stored.sha256,
      name: upload.fileName,
      signerName: check.signerName,
      signerTaxCode: check.signerTaxCode ?? data.principal.taxCode.toUpperCase(),
      signedAt: check.signedAt,
      certificate: {
        subject: check.certificate.subject,
        issuer: check.certificate.issuer,
        serial: check.certificate.serialNumber,
      },
      // What the certificate was checked against: the codice fiscale proved with CIE/SPID, when it was.
      report: {
        ...check.report,
        expectedSigner: {
          taxCode: data.principal.taxCode.toUpperCase(),
          verifiedBy: data.principal.taxCodeVerifiedAt ? data.principal.taxCodeVerifiedSource : null,
        },
      },
    },
  }).catch(async (error: unknown) => {
    // Nothing refers to the file: it goes (a failure to remove it only leaves it unreferenced).
    await deps.files
      .remove(stored.key)
      .catch((err: unknown) => deps.log.warn({ err, key: stored.key }, 'stored file not removed'));
    throw error;
  });
}
