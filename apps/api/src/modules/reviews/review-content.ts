import type { SignatureVerificationReport } from '@portale/shared/adhesions';
import type { AdhesionSignature, ReviewContent, ReviewDetail, ReviewType } from '@portale/shared/reviews';
import type { DbOrTx } from '../../db/transaction.ts';
import { visitReviewContent } from '../field-work/index.ts';
import * as content from './review-content.repository.ts';
import * as repo from './reviews.repository.ts';

/** A teacher's registration as reviewers see it; `undefined` when the profile is gone. */
async function teacherContent(db: DbOrTx, profileId: number): Promise<ReviewContent | undefined> {
  const row = await content.findTeacherUnderReview(db, profileId);
  if (!row) return undefined;
  return {
    type: 'insegnanti',
    teacher: {
      profileId: row.profileId,
      userId: row.userId,
      firstName: row.firstName,
      lastName: row.lastName,
      email: row.email,
      phone: row.phone,
      taxCode: row.taxCode,
      kind: row.kind,
      subjects: row.subjects,
      emailVerified: row.emailVerifiedAt !== null,
      phoneVerified: row.phoneVerifiedAt !== null,
      registeredAt: row.registeredAt.toISOString(),
      schoolSite:
        row.siteId === null
          ? null
          : {
              id: row.siteId,
              name: row.siteName!,
              ministryCode: row.siteCode!,
              municipalityName: row.siteMunicipality!,
              province: row.siteProvince!,
              instituteName: row.instituteName,
            },
    },
  };
}

/** A signature as reviewers see it, with the summary of what the portal verified (decision 032). */
function toReviewedSignature({
  report,
  ...signature
}: { report: SignatureVerificationReport | null; signedAt: Date; receivedAt: Date } & Omit<
  AdhesionSignature,
  'signedAt' | 'receivedAt' | 'verification'
>): AdhesionSignature {
  return {
    ...signature,
    signedAt: signature.signedAt.toISOString(),
    receivedAt: signature.receivedAt.toISOString(),
    verification: report
      ? {
          qualified: true,
          formatDetail: report.formatDetail,
          issuer: report.certificate.issuer,
          trustService: {
            provider: report.qualified.trustService.provider,
            name: report.qualified.trustService.name,
            status: report.qualified.trustService.status,
          },
          trustedTime: report.trustedTime,
          declaredSigningTime: report.declaredSigningTime,
          expectedSignerVerifiedBy: report.expectedSigner?.verifiedBy ?? null,
          revocation: {
            status: report.revocation.status,
            source: report.revocation.source,
            producedAt: report.revocation.producedAt,
          },
        }
      : null,
  };
}

/**
 * An institute's adhesion as reviewers see it: the institute, the signature the review was submitted
 * for and every signed version; `undefined` when the institute is gone.
 */
async function adhesionContent(
  db: DbOrTx,
  instituteId: number,
  signatureId: number | null,
): Promise<ReviewContent | undefined> {
  const row = await content.findInstituteUnderReview(db, instituteId);
  if (!row) return undefined;
  const signature =
    signatureId === null ? undefined : await content.findReviewedSignature(db, instituteId, signatureId);
  // Every version in the order the server received them (the id); the newest is the current one.
  const versions = await content.listSignatureVersions(db, instituteId);
  return {
    type: 'adesioni',
    institute: { ...row, principal: row.principal ?? null, firstContact: row.firstContact ?? null },
    signature: signature ? toReviewedSignature(signature) : null,
    versions: versions.map((v, index) => ({
      ...v,
      hasReport: Boolean(v.hasReport),
      signedAt: v.signedAt.toISOString(),
      receivedAt: v.receivedAt.toISOString(),
      current: index === versions.length - 1,
    })),
  };
}

/** One item of a queue with its subject's content and decision history; `undefined` when unknown or of another queue. */
export async function findReview(
  db: DbOrTx,
  type: ReviewType,
  itemId: number,
  now: Date,
): Promise<ReviewDetail | undefined> {
  const item = await repo.findReviewItem(db, type, itemId, now);
  if (!item) return undefined;
  const [content, history] = await Promise.all([
    type === 'insegnanti'
      ? teacherContent(db, item.subjectId)
      : type === 'visite'
        ? visitReviewContent(db, item.subjectId)
        : adhesionContent(db, item.subjectId, item.submissionId),
    repo.reviewHistory(db, type, item.subjectId),
  ]);
  if (!content) return undefined;
  return { ...item, content, history };
}
