import { and, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { OwnedResource } from '@portale/shared/auth';
import type { AdhesionDocumentMeta, AdhesionSignature, AdhesionViewerRole } from '@portale/shared/adhesions';
import type { AdhesionState, SchoolLevel } from '@portale/shared/registry';
import type { ReviewField } from '@portale/shared/reviews';
import {
  adhesionDocuments,
  adhesionSignatures,
  institutes,
  instituteAdhesionTransitions,
  messageTemplates,
  reviews,
  schoolSites,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx, Tx } from '../../db/transaction.ts';

/** The institute a principal or first contact acts for (the principal's first, then the first contact's). */
export interface ViewerInstitute {
  instituteId: number;
  viewerRole: AdhesionViewerRole;
  principalUserId: number | null;
  firstContactUserId: number | null;
}

export async function findViewerInstitute(
  db: DbOrTx,
  userId: number,
  chosen?: number,
): Promise<ViewerInstitute | undefined> {
  // Several institutes (issue 35, item 1): the chosen one; otherwise the one that needs this person
  // first — as principal, one still to sign or to correct (the portal's guard sends them to sign it) —
  // then the oldest.
  const [row] = await db
    .select({
      id: institutes.id,
      principal: institutes.principalUserId,
      firstContact: institutes.firstContactUserId,
    })
    .from(institutes)
    .where(
      and(
        or(eq(institutes.principalUserId, userId), eq(institutes.firstContactUserId, userId)),
        chosen === undefined ? undefined : eq(institutes.id, chosen),
      ),
    )
    .orderBy(
      sql`case when ${institutes.principalUserId} = ${userId} then 0 else 1 end`,
      sql`case when ${institutes.adhesionState} in ('nessuna', 'iscritto', 'da_correggere') then 0 else 1 end`,
      asc(institutes.id),
    )
    .limit(1);
  if (!row) return undefined;
  return {
    instituteId: row.id,
    viewerRole: row.principal === userId ? 'principal' : 'first-contact',
    principalUserId: row.principal,
    firstContactUserId: row.firstContact,
  };
}

/** Owners of an institute for `read:adhesion` (principal, first contact); `undefined` when missing. */
export async function findAdhesionOwners(
  db: DbOrTx,
  instituteId: number,
): Promise<OwnedResource | undefined> {
  const [row] = await db
    .select({ principal: institutes.principalUserId, firstContact: institutes.firstContactUserId })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  return row && { ownerUserIds: [row.principal, row.firstContact] };
}

export interface AdhesionPersonRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  taxCode: string | null;
  /** Set when the codice fiscale was proved with CIE/SPID (decision 048). */
  taxCodeVerifiedAt: Date | null;
  taxCodeVerifiedSource: 'cie' | 'spid' | null;
  phone: string | null;
  phoneVerifiedAt: Date | null;
}

export interface AdhesionDataRow {
  id: number;
  ministryCode: string;
  name: string;
  address: string | null;
  postalCode: string | null;
  municipalityName: string;
  province: string;
  region: string;
  certifiedEmail: string | null;
  adhesionState: AdhesionState;
  adhesionStateChangedAt: Date | null;
  principal: AdhesionPersonRow | null;
  firstContact: AdhesionPersonRow | null;
  schoolSites: {
    id: number;
    ministryCode: string;
    name: string;
    schoolLevel: SchoolLevel;
    municipalityName: string;
    province: string;
  }[];
}

const personFields = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  taxCode: users.taxCode,
  taxCodeVerifiedAt: users.taxCodeVerifiedAt,
  taxCodeVerifiedSource: users.taxCodeVerifiedSource,
  phone: users.phone,
  phoneVerifiedAt: users.phoneVerifiedAt,
};

/** Everything the adhesion document shows: the institute, its principal and first contact, the participating plessi. */
export async function findAdhesionData(
  db: DbOrTx,
  instituteId: number,
  options: { lock?: boolean } = {},
): Promise<AdhesionDataRow | undefined> {
  const query = db
    .select({
      id: institutes.id,
      ministryCode: institutes.ministryCode,
      name: institutes.name,
      address: institutes.address,
      postalCode: institutes.postalCode,
      municipalityName: institutes.municipalityName,
      province: institutes.province,
      region: institutes.region,
      certifiedEmail: institutes.certifiedEmail,
      adhesionState: institutes.adhesionState,
      adhesionStateChangedAt: institutes.adhesionStateChangedAt,
      principalUserId: institutes.principalUserId,
      firstContactUserId: institutes.firstContactUserId,
    })
    .from(institutes)
    .where(eq(institutes.id, instituteId));
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) return undefined;
  const ids = [row.principalUserId, row.firstContactUserId].filter((id): id is number => id !== null);
  const [people, sites] = await Promise.all([
    ids.length ? db.select(personFields).from(users).where(inArray(users.id, ids)) : Promise.resolve([]),
    db
      .select({
        id: schoolSites.id,
        ministryCode: schoolSites.ministryCode,
        name: schoolSites.name,
        schoolLevel: schoolSites.schoolLevel,
        municipalityName: schoolSites.municipalityName,
        province: schoolSites.province,
      })
      .from(schoolSites)
      .where(and(eq(schoolSites.instituteId, instituteId), eq(schoolSites.participating, true)))
      .orderBy(asc(schoolSites.ministryCode)),
  ]);
  const byId = new Map(people.map((p) => [p.id, p]));
  const { principalUserId, firstContactUserId, ...institute } = row;
  return {
    ...institute,
    principal: (principalUserId !== null && byId.get(principalUserId)) || null,
    firstContact: (firstContactUserId !== null && byId.get(firstContactUserId)) || null,
    schoolSites: sites,
  };
}

/** The newest version of a template (`undefined` when the key has none). */
export async function findLatestTemplate(db: DbOrTx, key: string) {
  const [row] = await db
    .select({
      version: messageTemplates.version,
      subject: messageTemplates.subject,
      textBody: messageTemplates.textBody,
    })
    .from(messageTemplates)
    .where(eq(messageTemplates.key, key))
    .orderBy(desc(messageTemplates.version))
    .limit(1);
  return row;
}

const documentMetaFields = {
  id: adhesionDocuments.id,
  version: adhesionDocuments.version,
  sha256: adhesionDocuments.sha256,
  sizeBytes: sql<number>`octet_length(${adhesionDocuments.pdf})::int`,
  templateVersion: adhesionDocuments.templateVersion,
  createdAt: adhesionDocuments.createdAt,
};

type DocumentMetaRow = Omit<AdhesionDocumentMeta, 'createdAt' | 'sizeBytes'> & {
  createdAt: Date;
  sizeBytes: number | string;
};

export function toDocumentMeta(row: DocumentMetaRow): AdhesionDocumentMeta {
  return { ...row, sizeBytes: Number(row.sizeBytes), createdAt: row.createdAt.toISOString() };
}

export type DocumentRow = DocumentMetaRow;

/** The newest generated document of an institute (metadata only). */
export async function findLatestDocument(db: DbOrTx, instituteId: number): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select(documentMetaFields)
    .from(adhesionDocuments)
    .where(eq(adhesionDocuments.instituteId, instituteId))
    .orderBy(desc(adhesionDocuments.version))
    .limit(1);
  return row;
}

/** The bytes of one document. */
export async function findDocumentPdf(
  db: DbOrTx,
  documentId: number,
): Promise<{ pdf: Buffer; sha256: string; version: number } | undefined> {
  const [row] = await db
    .select({
      pdf: adhesionDocuments.pdf,
      sha256: adhesionDocuments.sha256,
      version: adhesionDocuments.version,
    })
    .from(adhesionDocuments)
    .where(eq(adhesionDocuments.id, documentId));
  return row;
}

export async function insertDocument(
  tx: Tx,
  values: {
    instituteId: number;
    version: number;
    templateKey: string;
    templateVersion: number;
    pdf: Buffer;
    sha256: string;
    createdByUserId: number | null;
    createdAt: Date;
  },
): Promise<DocumentRow> {
  const [row] = await tx.insert(adhesionDocuments).values(values).returning(documentMetaFields);
  return row!;
}

// The online signature's SMS challenges are in signature-challenges.repository.ts, re-exported here.
export * from './signature-challenges.repository.ts';

// --- Signatures ----------------------------------------------------------------------------------

export type SignatureInsert = Omit<typeof adhesionSignatures.$inferInsert, 'id'>;

const signatureFields = {
  id: adhesionSignatures.id,
  method: adhesionSignatures.method,
  signerName: adhesionSignatures.signerName,
  signerTaxCode: adhesionSignatures.signerTaxCode,
  signedAt: adhesionSignatures.signedAt,
  documentSha256: adhesionSignatures.documentSha256,
  documentVersion: adhesionDocuments.version,
  signedFileName: adhesionSignatures.signedFileName,
  certificateSubject: adhesionSignatures.certificateSubject,
};

function toSignature(row: Omit<AdhesionSignature, 'signedAt'> & { signedAt: Date }): AdhesionSignature {
  return { ...row, signedAt: row.signedAt.toISOString() };
}

export async function insertSignature(tx: Tx, values: SignatureInsert): Promise<number> {
  const [row] = await tx.insert(adhesionSignatures).values(values).returning({ id: adhesionSignatures.id });
  return row!.id;
}

export async function findSignature(db: DbOrTx, signatureId: number): Promise<AdhesionSignature | undefined> {
  const [row] = await db
    .select(signatureFields)
    .from(adhesionSignatures)
    .innerJoin(adhesionDocuments, eq(adhesionDocuments.id, adhesionSignatures.documentId))
    .where(eq(adhesionSignatures.id, signatureId));
  return row && toSignature(row);
}

/**
 * The institute's current signature: the newest one the server received (upload order, the id of the
 * row), never the signing time the signer declared (issue 33: a re-sign with a clock set back must
 * still be the current one).
 */
export async function findLastSignature(
  db: DbOrTx,
  instituteId: number,
): Promise<(AdhesionSignature & { documentId: number }) | undefined> {
  const [row] = await db
    .select({ ...signatureFields, documentId: adhesionSignatures.documentId })
    .from(adhesionSignatures)
    .innerJoin(adhesionDocuments, eq(adhesionDocuments.id, adhesionSignatures.documentId))
    .where(eq(adhesionSignatures.instituteId, instituteId))
    .orderBy(desc(adhesionSignatures.id))
    .limit(1);
  return row && { ...toSignature(row), documentId: row.documentId };
}

export async function hasSignature(db: DbOrTx, instituteId: number): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(adhesionSignatures)
    .where(eq(adhesionSignatures.instituteId, instituteId));
  return Number(row?.n ?? 0) > 0;
}

/** The uploaded file of the institute's current signature, the newest received (none for an online signature). */
export async function findLastSignedFile(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      method: adhesionSignatures.method,
      // Null for files in the file store (decision 030): only older rows carry their bytes.
      file: adhesionSignatures.signedFile,
      fileKey: adhesionSignatures.signedFileKey,
      fileName: adhesionSignatures.signedFileName,
      sha256: adhesionSignatures.signedFileSha256,
      formatDetail: sql<string | null>`${adhesionSignatures.verificationReport}->>'formatDetail'`,
    })
    .from(adhesionSignatures)
    .where(eq(adhesionSignatures.instituteId, instituteId))
    .orderBy(desc(adhesionSignatures.id))
    .limit(1);
  return row;
}

/** The verification report of one signature of an institute (null for an online signature or an older upload). */
export async function findVerificationReport(db: DbOrTx, instituteId: number, signatureId: number) {
  const [row] = await db
    .select({ report: adhesionSignatures.verificationReport })
    .from(adhesionSignatures)
    .where(and(eq(adhesionSignatures.id, signatureId), eq(adhesionSignatures.instituteId, instituteId)));
  return row;
}

/** The reviewer's note of the last "changes requested" decision on the institute's adhesion. */
export async function findReviewNote(
  db: DbOrTx,
  instituteId: number,
): Promise<{ note: string; decidedAt: Date; fields: ReviewField[] } | undefined> {
  const [review] = await db
    .select({ note: reviews.note, decidedAt: reviews.decidedAt, fields: reviews.flaggedFields })
    .from(reviews)
    .where(
      and(
        eq(reviews.type, 'adesioni'),
        eq(reviews.subjectId, instituteId),
        eq(reviews.state, 'da_correggere'),
      ),
    )
    .orderBy(desc(reviews.decidedAt), desc(reviews.id))
    .limit(1);
  if (review?.note && review.decidedAt)
    return { note: review.note, decidedAt: review.decidedAt, fields: review.fields };
  // A state change made without a review row (by staff) keeps its note on the transition.
  const [transition] = await db
    .select({ note: instituteAdhesionTransitions.note, at: instituteAdhesionTransitions.at })
    .from(instituteAdhesionTransitions)
    .where(
      and(
        eq(instituteAdhesionTransitions.instituteId, instituteId),
        eq(instituteAdhesionTransitions.toState, 'da_correggere'),
      ),
    )
    .orderBy(desc(instituteAdhesionTransitions.at), desc(instituteAdhesionTransitions.id))
    .limit(1);
  return transition?.note ? { note: transition.note, decidedAt: transition.at, fields: [] } : undefined;
}

// The school's home on /portale (its people, plessi, institutes of a person) is in
// school-home.repository.ts, re-exported here.
export * from './school-home.repository.ts';
