import { maskPhone } from '@portale/shared/accounts';
import {
  ADHESION_TEMPLATE_KEY,
  SIGNATURE_METHOD_LABELS,
  type CurrentAdhesion,
  type SignatureMethod,
} from '@portale/shared/adhesions';
import type { SignatureVerificationReport } from '@portale/shared/adhesions';
import type { AdhesionState } from '@portale/shared/registry';
import type { Db } from '../../db/client.ts';
import { withTransaction, type DbOrTx, type Tx } from '../../db/transaction.ts';
import { auditWrite } from '../../lib/audit.ts';
import { HttpError } from '../../lib/http-error.ts';
import { enqueueMessage } from '../messages/index.ts';
import { submitForReview } from '../review-queue/index.ts';
import {
  DEFAULT_DOCUMENT_TEMPLATE,
  renderAdhesionDocument,
  type DocumentTemplate,
} from './adhesion-document.ts';
import { transitionAdhesion } from './adhesion-state.repository.ts';
import * as repo from './adhesions.repository.ts';
import { nextStepOf } from './adhesion-next-step.ts';

/** The states in which the document may be (re)generated and signed. */
export const SIGNABLE_STATES: readonly AdhesionState[] = ['iscritto', 'da_correggere'];
export const CODE_TTL_MS = 10 * 60_000;
export const RESEND_GAP_MS = 60_000;
export const MAX_CODES_PER_DAY = 10;
export const MAX_WRONG_TRIES = 5;

export const MESSAGES = {
  noInstitute: 'Il tuo account non è collegato a un istituto come dirigente scolastico o referente.',
  notSignable: (state: AdhesionState) =>
    state === 'nessuna'
      ? "L'istituto non è ancora iscritto al programma: completa prima l'iscrizione."
      : 'Il documento di adesione si può preparare e firmare solo quando l’istituto è iscritto o quando lo staff ha chiesto correzioni.',
  noDocument: 'Il documento di adesione non è ancora stato preparato.',
  documentChanged:
    'Il documento è cambiato da quando lo hai aperto: rileggi la versione aggiornata e firma di nuovo.',
  noPhone:
    'Per firmare online serve un numero di cellulare verificato: aggiungilo e verificalo nel tuo account.',
  noTaxCode:
    'Per caricare il documento firmato digitalmente indica prima il tuo codice fiscale nel tuo account: lo confrontiamo con quello del certificato di firma.',
  onlyPrincipal: 'Solo il dirigente scolastico può firmare il documento di adesione.',
  challengeNotFound: 'Codice non trovato: chiedi un nuovo codice.',
  challengeUsed: 'Questo codice è già stato usato: chiedi un nuovo codice.',
  codeExhausted: 'Hai sbagliato il codice troppe volte: chiedi un nuovo codice.',
  codeExpired: 'Il codice è scaduto: chiedi un nuovo codice.',
} as const;

const dateTime = new Intl.DateTimeFormat('it-IT', {
  timeZone: 'Europe/Rome',
  dateStyle: 'long',
  timeStyle: 'short',
});
async function documentTemplate(db: DbOrTx): Promise<DocumentTemplate> {
  const row = await repo.findLatestTemplate(db, ADHESION_TEMPLATE_KEY);
  return row ?? DEFAULT_DOCUMENT_TEMPLATE;
}

/**
 * The current document of an institute, in the caller's transaction (the institute row is locked):
 * the newest version when the data and the template still render to its exact bytes, otherwise a
 * new version dated `at`. The same inputs always give the same document.
 */
export async function ensureAdhesionDocument(
  tx: Tx,
  instituteId: number,
  actorUserId: number | null,
  at: Date,
): Promise<repo.DocumentRow> {
  const data = await repo.findAdhesionData(tx, instituteId, { lock: true });
  if (!data) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  const template = await documentTemplate(tx);
  const latest = await repo.findLatestDocument(tx, instituteId);
  if (latest && latest.templateVersion === template.version) {
    const again = await renderAdhesionDocument(template, data, latest.createdAt);
    if (again.sha256 === latest.sha256) return latest;
  }
  const rendered = await renderAdhesionDocument(template, data, at);
  const document = await repo.insertDocument(tx, {
    instituteId,
    version: (latest?.version ?? 0) + 1,
    templateKey: ADHESION_TEMPLATE_KEY,
    templateVersion: template.version,
    pdf: rendered.pdf,
    sha256: rendered.sha256,
    createdByUserId: actorUserId,
    createdAt: at,
  });
  await auditWrite(
    tx,
    { userId: actorUserId, ip: null, at },
    {
      action: 'adhesion.document.generated',
      entity: 'institute',
      entityId: instituteId,
      after: { version: document.version, sha256: document.sha256 },
    },
  );
  return document;
}

/** Generates the current document when the state allows it; otherwise 409. */
export async function prepareDocument(
  db: Db,
  instituteId: number,
  actorUserId: number,
  at: Date,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    const data = await repo.findAdhesionData(tx, instituteId);
    if (!data) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
    if (!SIGNABLE_STATES.includes(data.adhesionState))
      throw new HttpError(409, 'adhesion_not_signable', MESSAGES.notSignable(data.adhesionState));
    await ensureAdhesionDocument(tx, instituteId, actorUserId, at);
  });
}

/** The document to show and download: kept current first while it may be signed, else the newest (the signed one). */
export async function currentDocument(
  db: Db,
  instituteId: number,
  actorUserId: number,
  at: Date,
): Promise<repo.DocumentRow | undefined> {
  const data = await repo.findAdhesionData(db, instituteId);
  if (!data) return undefined;
  if (SIGNABLE_STATES.includes(data.adhesionState))
    return withTransaction(db, (tx) => ensureAdhesionDocument(tx, instituteId, actorUserId, at));
  return repo.findLatestDocument(db, instituteId);
}

/** The page's whole state; while the document may be signed, it is kept current first. */
export async function currentAdhesion(
  db: Db,
  viewer: repo.ViewerInstitute & { userId: number },
  at: Date,
  uploadMaxBytes: number,
): Promise<CurrentAdhesion> {
  let data = await repo.findAdhesionData(db, viewer.instituteId);
  if (!data) throw new HttpError(404, 'not_found', MESSAGES.noInstitute);
  const signable = SIGNABLE_STATES.includes(data.adhesionState);
  if (signable) {
    await withTransaction(db, (tx) => ensureAdhesionDocument(tx, viewer.instituteId, viewer.userId, at));
    data = (await repo.findAdhesionData(db, viewer.instituteId))!;
  }
  const [latest, lastSignature, reviewNote, correctableSchoolSites, held] = await Promise.all([
    repo.findLatestDocument(db, viewer.instituteId),
    repo.findLastSignature(db, viewer.instituteId),
    data.adhesionState === 'da_correggere'
      ? repo.findReviewNote(db, viewer.instituteId)
      : Promise.resolve(undefined),
    data.adhesionState === 'da_correggere'
      ? repo.instituteSchoolSites(db, viewer.instituteId)
      : Promise.resolve(null),
    repo.institutesOfPerson(db, viewer.userId),
  ]);
  const principal = viewer.viewerRole === 'principal';
  const me = principal ? data.principal : data.firstContact;
  const canSign = principal && signable && latest !== undefined;
  const { documentId: _documentId, ...signature } = lastSignature ?? { documentId: 0 };
  const person = (p: repo.AdhesionPersonRow | null) =>
    p && {
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      taxCode: p.taxCode,
      taxCodeVerifiedBy: p.taxCodeVerifiedAt ? p.taxCodeVerifiedSource : null,
      taxCodeVerifiedAt: p.taxCodeVerifiedAt?.toISOString() ?? null,
    };
  return {
    viewerRole: viewer.viewerRole,
    institute: {
      id: data.id,
      ministryCode: data.ministryCode,
      name: data.name,
      address: data.address,
      postalCode: data.postalCode,
      municipalityName: data.municipalityName,
      province: data.province,
      region: data.region,
      certifiedEmail: data.certifiedEmail,
      adhesionState: data.adhesionState,
      adhesionStateChangedAt: data.adhesionStateChangedAt?.toISOString() ?? null,
      principal: person(data.principal),
      firstContact: person(data.firstContact),
      schoolSites: data.schoolSites,
    },
    // Once signed (or decided), the document shown is the one that was signed.
    document: latest ? repo.toDocumentMeta(latest) : null,
    lastSignature: lastSignature ? (signature as CurrentAdhesion['lastSignature']) : null,
    nextStep: nextStepOf(data.adhesionState, viewer.viewerRole),
    institutes: held,
    reviewNote: reviewNote
      ? { note: reviewNote.note, decidedAt: reviewNote.decidedAt.toISOString(), fields: reviewNote.fields }
      : null,
    correctableSchoolSites,
    canPrepare: signable,
    canSign,
    signBlockers: {
      online: canSign && !(me?.phone && me.phoneVerifiedAt) ? MESSAGES.noPhone : null,
      upload: canSign && !me?.taxCode ? MESSAGES.noTaxCode : null,
    },
    phoneMasked: me?.phone ? maskPhone(me.phone) : null,
    signedUploadMaxBytes: uploadMaxBytes,
  };
}

// --- Online signature: the SMS code is in online-signature.service.ts; recording a signature here -----

/** The principal about to sign, with the institute in a signable state and the document they saw. */
export async function signingContext(
  db: DbOrTx,
  instituteId: number,
  userId: number,
  documentSha256: string,
) {
  const data = await repo.findAdhesionData(db, instituteId);
  if (!data) throw new HttpError(404, 'not_found', 'Istituto non trovato.');
  if (data.principal?.id !== userId) throw new HttpError(403, 'forbidden', MESSAGES.onlyPrincipal);
  if (!SIGNABLE_STATES.includes(data.adhesionState)) {
    throw new HttpError(409, 'adhesion_state_conflict', `${MESSAGES.notSignable(data.adhesionState)}`);
  }
  const latest = await repo.findLatestDocument(db, instituteId);
  if (!latest) throw new HttpError(409, 'no_document', MESSAGES.noDocument);
  if (latest.sha256 !== documentSha256)
    throw new HttpError(409, 'document_changed', MESSAGES.documentChanged);
  return { data, principal: data.principal, document: latest };
}

export interface SignatureRecord {
  instituteId: number;
  userId: number;
  method: SignatureMethod;
  documentSha256: string;
  at: Date;
  ip: string | null;
  /** Set by the upload: the verified file and its certificate. */
  file?: {
    /** Its key in the file store (decision 030). */ key: string;
    sha256: string;
    name: string;
    signerName: string;
    signerTaxCode: string;
    signedAt: Date;
    certificate: { subject: string; issuer: string; serial: string };
    report: SignatureVerificationReport;
  };
  /** Runs first in the transaction (marks the SMS challenge used). */
  before?: (tx: Tx) => Promise<void>;
}

/**
 * Records a signature in one transaction: the signature row, the state `adesione_firmata` (409 from
 * any other state than `iscritto`/`da_correggere`), the review item, the audit and the e-mails.
 */
export async function recordSignature(db: Db, webUrl: string, record: SignatureRecord): Promise<number> {
  const { at } = record;
  return withTransaction(db, async (tx) => {
    await record.before?.(tx);
    const { data, principal, document } = await signingContext(
      tx,
      record.instituteId,
      record.userId,
      record.documentSha256,
    );
    const signerName = record.file?.signerName ?? `${principal.firstName} ${principal.lastName}`;
    const signatureId = await repo.insertSignature(tx, {
      instituteId: record.instituteId,
      documentId: document.id,
      method: record.method,
      signerUserId: record.userId,
      signerName,
      signerTaxCode: record.file?.signerTaxCode ?? principal.taxCode,
      signedAt: record.file?.signedAt ?? at,
      ip: record.ip,
      documentSha256: document.sha256,
      signedFile: null,
      signedFileKey: record.file?.key ?? null,
      signedFileSha256: record.file?.sha256 ?? null,
      signedFileName: record.file?.name ?? null,
      certificateSubject: record.file?.certificate.subject ?? null,
      certificateIssuer: record.file?.certificate.issuer ?? null,
      certificateSerial: record.file?.certificate.serial ?? null,
      verificationReport: record.file?.report ?? null,
      createdAt: at,
    });
    await transitionAdhesion(tx, {
      instituteId: record.instituteId,
      to: 'adesione_firmata',
      from: SIGNABLE_STATES,
      actorUserId: record.userId,
      ip: record.ip,
      at,
    });
    await submitForReview(tx, {
      type: 'adesioni',
      subjectId: record.instituteId,
      submissionId: signatureId,
      at,
    });
    await auditWrite(
      tx,
      { userId: record.userId, ip: record.ip, at },
      {
        action: 'adhesion.signed',
        entity: 'institute',
        entityId: record.instituteId,
        after: {
          signatureId,
          method: record.method,
          documentVersion: document.version,
          documentSha256: document.sha256,
          ...(record.file ? { signedFileSha256: record.file.sha256 } : {}),
        },
      },
    );
    const common = {
      instituteName: data.name,
      ministryCode: data.ministryCode,
      signedAt: dateTime.format(at),
      portalLink: `${webUrl}/portale`,
    };
    await enqueueMessage(tx, {
      templateKey: 'email.adesione-firmata',
      recipient: principal.email,
      data: {
        ...common,
        firstName: principal.firstName,
        methodLabel: SIGNATURE_METHOD_LABELS[record.method],
        documentSha256: document.sha256,
      },
      now: at,
    });
    if (data.firstContact && data.firstContact.id !== principal.id) {
      await enqueueMessage(tx, {
        templateKey: 'email.adesione-firmata-referente',
        recipient: data.firstContact.email,
        data: {
          ...common,
          firstName: data.firstContact.firstName,
          principalName: `${principal.firstName} ${principal.lastName}`,
        },
        now: at,
      });
    }
    return signatureId;
  });
}

/**
 * Demo data (seed): the current document and an online signature of the principal with its review
 * item, for a demo institute already in `adesione_firmata`. The state is not changed. Idempotent.
 */
export async function seedDemoAdhesion(
  db: Db,
  instituteId: number,
  principalUserId: number,
  at: Date,
): Promise<void> {
  if (await repo.hasSignature(db, instituteId)) return;
  await withTransaction(db, async (tx) => {
    const document = await ensureAdhesionDocument(tx, instituteId, principalUserId, at);
    const data = await repo.findAdhesionData(tx, instituteId);
    const principal = data?.principal;
    const signatureId = await repo.insertSignature(tx, {
      instituteId,
      documentId: document.id,
      method: 'online',
      signerUserId: principalUserId,
      signerName: principal ? `${principal.firstName} ${principal.lastName}` : 'Dirigente scolastico',
      signerTaxCode: principal?.taxCode ?? null,
      signedAt: at,
      ip: '127.0.0.1',
      documentSha256: document.sha256,
      createdAt: at,
    });
    await submitForReview(tx, { type: 'adesioni', subjectId: instituteId, submissionId: signatureId, at });
  });
}
