import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  adhesionSignatures,
  institutes,
  schoolSites,
  teacherProfiles,
  users,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/transaction.ts';
import { fullName } from './reviews.repository.ts';

// The queries of a review's content (its subject as reviewers see it); `review-content.ts` shapes them.

/** A teacher profile under review with its user and plesso (`review-content.ts` shapes it). */
export async function findTeacherUnderReview(db: DbOrTx, profileId: number) {
  const [row] = await db
    .select({
      profileId: teacherProfiles.id,
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phone: users.phone,
      taxCode: users.taxCode,
      kind: teacherProfiles.kind,
      subjects: teacherProfiles.subjects,
      emailVerifiedAt: users.emailVerifiedAt,
      phoneVerifiedAt: users.phoneVerifiedAt,
      registeredAt: teacherProfiles.createdAt,
      siteId: schoolSites.id,
      siteName: schoolSites.name,
      siteCode: schoolSites.ministryCode,
      siteMunicipality: schoolSites.municipalityName,
      siteProvince: schoolSites.province,
      instituteName: institutes.name,
    })
    .from(teacherProfiles)
    .innerJoin(users, eq(users.id, teacherProfiles.userId))
    .leftJoin(schoolSites, eq(schoolSites.id, teacherProfiles.schoolSiteId))
    .leftJoin(institutes, eq(institutes.id, schoolSites.instituteId))
    .where(eq(teacherProfiles.id, profileId));
  return row;
}

const principal = alias(users, 'principal');
const firstContact = alias(users, 'first_contact');

/** An institute whose adhesion is under review, with its principal's and first contact's names. */
export async function findInstituteUnderReview(db: DbOrTx, instituteId: number) {
  const [row] = await db
    .select({
      id: institutes.id,
      name: institutes.name,
      ministryCode: institutes.ministryCode,
      municipalityName: institutes.municipalityName,
      province: institutes.province,
      region: institutes.region,
      adhesionState: institutes.adhesionState,
      principal: fullName(principal),
      firstContact: fullName(firstContact),
    })
    .from(institutes)
    .leftJoin(principal, eq(principal.id, institutes.principalUserId))
    .leftJoin(firstContact, eq(firstContact.id, institutes.firstContactUserId))
    .where(eq(institutes.id, instituteId));
  return row;
}

/** The signature a review was submitted for, with the portal's verification report. */
export async function findReviewedSignature(db: DbOrTx, instituteId: number, signatureId: number) {
  const [signature] = await db
    .select({
      id: adhesionSignatures.id,
      method: adhesionSignatures.method,
      signerName: adhesionSignatures.signerName,
      signerTaxCode: adhesionSignatures.signerTaxCode,
      signedAt: adhesionSignatures.signedAt,
      documentSha256: adhesionSignatures.documentSha256,
      signedFileName: adhesionSignatures.signedFileName,
      signedFileSha256: adhesionSignatures.signedFileSha256,
      certificateSubject: adhesionSignatures.certificateSubject,
      receivedAt: adhesionSignatures.createdAt,
      report: adhesionSignatures.verificationReport,
    })
    .from(adhesionSignatures)
    .where(and(eq(adhesionSignatures.id, signatureId), eq(adhesionSignatures.instituteId, instituteId)));
  return signature;
}

/** Every signed version of an institute's document in the order the server received them (the id). */
export async function listSignatureVersions(db: DbOrTx, instituteId: number) {
  return db
    .select({
      id: adhesionSignatures.id,
      method: adhesionSignatures.method,
      signerName: adhesionSignatures.signerName,
      signedAt: adhesionSignatures.signedAt,
      receivedAt: adhesionSignatures.createdAt,
      signedFileName: adhesionSignatures.signedFileName,
      hasReport: sql<boolean>`${adhesionSignatures.verificationReport} is not null`,
    })
    .from(adhesionSignatures)
    .where(eq(adhesionSignatures.instituteId, instituteId))
    .orderBy(asc(adhesionSignatures.id));
}
