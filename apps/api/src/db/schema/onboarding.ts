import { sql } from 'drizzle-orm';
import {
  bigint,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { ADHESION_STATES } from '@portale/shared/registry';
import { REVIEW_FIELDS, REVIEW_STATES, REVIEW_TYPES } from '@portale/shared/reviews';
import { SIGNATURE_METHODS, type SignatureVerificationReport } from '@portale/shared/adhesions';
import {
  ENROLMENT_INVITATION_KINDS,
  ENROLMENT_INVITATION_ROLES,
  ENROLMENT_INVITATION_STATES,
} from '@portale/shared/enrolment';
import { institutes } from './schools.ts';
import { phoneVerifications } from './accounts.ts';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

/** Raw bytes (PDFs, signed files): `bytea`, read as a Buffer on PostgreSQL and PGlite alike. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });
const instituteRef = () =>
  bigint('institute_id', { mode: 'number' })
    .notNull()
    .references(() => institutes.id, { onDelete: 'cascade' });

/** One school enrolment (product §4): who applied with which verified phone, who was linked. */
export const enrolments = pgTable(
  'enrolments',
  {
    id: id(),
    instituteId: instituteRef(),
    /** The verified phone check it used: one enrolment per verification. */
    phoneVerificationId: uuid('phone_verification_id')
      .notNull()
      .unique()
      .references(() => phoneVerifications.id, { onDelete: 'restrict' }),
    applicantPhone: text('applicant_phone').notNull(),
    principalUserId: userRef('principal_user_id'),
    firstContactUserId: userRef('first_contact_user_id'),
    /** The participating plessi chosen at enrolment (ids). */
    schoolSiteIds: text('school_site_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    privacyAcceptedAt: ts('privacy_accepted_at').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('enrolments_institute_idx').on(t.instituteId)],
);

/**
 * The adhesion document of an institute as generated (pdf-lib, template `documento.adesione`): the
 * exact bytes and their SHA-256. A new version is generated when the data or the template changes.
 */
export const adhesionDocuments = pgTable(
  'adhesion_documents',
  {
    id: id(),
    instituteId: instituteRef(),
    version: integer('version').notNull(),
    templateKey: text('template_key').notNull(),
    templateVersion: integer('template_version').notNull(),
    pdf: bytea('pdf').notNull(),
    sha256: text('sha256').notNull(),
    createdByUserId: userRef('created_by_user_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('adhesion_documents_institute_version_idx').on(t.instituteId, t.version)],
);

/** A principal's signature of one adhesion document: online (SMS code) or an uploaded PAdES/CAdES file. */
export const adhesionSignatures = pgTable(
  'adhesion_signatures',
  {
    id: id(),
    instituteId: instituteRef(),
    documentId: bigint('document_id', { mode: 'number' })
      .notNull()
      .references(() => adhesionDocuments.id, { onDelete: 'restrict' }),
    method: text('method', { enum: SIGNATURE_METHODS }).notNull(),
    signerUserId: userRef('signer_user_id'),
    signerName: text('signer_name').notNull(),
    signerTaxCode: text('signer_tax_code'),
    signedAt: ts('signed_at').notNull(),
    ip: text('ip'),
    /** SHA-256 of the exact generated PDF that was signed. */
    documentSha256: text('document_sha256').notNull(),
    /** The uploaded signed file (PAdES/CAdES) and its hash; null for online signatures. */
    signedFile: bytea('signed_file'),
    /** The uploaded signed file in the file store (decision 030); `signed_file` holds it for older rows. */
    signedFileKey: text('signed_file_key'),
    signedFileSha256: text('signed_file_sha256'),
    signedFileName: text('signed_file_name'),
    certificateSubject: text('certificate_subject'),
    certificateIssuer: text('certificate_issuer'),
    certificateSerial: text('certificate_serial'),
    /** What the portal verified (qualified chain, trust service, trusted time, list used): the evidence (decision 032). */
    verificationReport: jsonb('verification_report').$type<SignatureVerificationReport>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('adhesion_signatures_institute_idx').on(t.instituteId, t.createdAt)],
);

/** One-time SMS code that confirms an online signature (code stored as a hash; 10 min, 5 attempts). */
export const signatureChallenges = pgTable(
  'signature_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: bigint('document_id', { mode: 'number' })
      .notNull()
      .references(() => adhesionDocuments.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('signature_challenges_user_idx').on(t.userId, t.createdAt)],
);

/**
 * One submission waiting for, or carrying, a reviewer's decision (product §3 Review). `subjectId` is
 * the teacher profile (`insegnanti`), the institute (`adesioni`, with the signature in `submissionId`)
 * or the visit (`visite`). A resubmission is a new row: the rows of a subject are its decision history.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    type: text('type', { enum: REVIEW_TYPES }).notNull(),
    subjectId: bigint('subject_id', { mode: 'number' }).notNull(),
    submissionId: bigint('submission_id', { mode: 'number' }),
    state: text('state', { enum: REVIEW_STATES }).notNull().default('in_attesa'),
    submittedAt: ts('submitted_at').notNull(),
    /** A reviewer walking the queue holds the item for a few minutes: two reviewers get different items. */
    claimedByUserId: userRef('claimed_by_user_id'),
    claimedUntil: ts('claimed_until'),
    decidedAt: ts('decided_at'),
    decidedByUserId: userRef('decided_by_user_id'),
    note: text('note'),
    /** With a "Chiedi correzioni" decision: the fields to correct (`REVIEW_CORRECTABLE_FIELDS`, issue 35 item 2). */
    flaggedFields: text('flagged_fields', { enum: REVIEW_FIELDS })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    index('reviews_queue_idx').on(t.type, t.state, t.submittedAt, t.id),
    // A whole queue (every state) in submission order, the review pages' default (decision 033).
    index('reviews_type_submitted_idx').on(t.type, t.submittedAt, t.id),
    index('reviews_subject_idx').on(t.type, t.subjectId, t.submittedAt),
    uniqueIndex('reviews_one_pending_idx')
      .on(t.type, t.subjectId)
      .where(sql`${t.state} = 'in_attesa'`),
  ],
);

/** A reminder e-mail sent to an institute stuck in an adhesion state: at most one per institute per day. */
export const adhesionReminders = pgTable(
  'adhesion_reminders',
  {
    id: id(),
    instituteId: instituteRef(),
    adhesionState: text('adhesion_state', { enum: ADHESION_STATES }).notNull(),
    /** The Europe/Rome calendar day it was sent. */
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    sentByUserId: userRef('sent_by_user_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('adhesion_reminders_day_idx').on(t.instituteId, t.sentOn)],
);

/**
 * An existing account named as principal or first contact by an enrolment (issue 32): it gets the
 * roles only when its owner, signed in, accepts and `tax_code` (typed in the enrolment) is the
 * account's. One row per person per enrolment; decided once.
 */
export const enrolmentInvitations = pgTable(
  'enrolment_invitations',
  {
    id: id(),
    /** The enrolment that named the person; `null` for a handover (decision 047). */
    enrolmentId: bigint('enrolment_id', { mode: 'number' }).references(() => enrolments.id, {
      onDelete: 'cascade',
    }),
    /** `iscrizione`: named by an enrolment; `passaggio`: a new principal or first contact replacing the holder (decision 047). */
    kind: text('kind', { enum: ENROLMENT_INVITATION_KINDS }).notNull().default('iscrizione'),
    /** Who started a handover (staff or the principal); `null` for an enrolment. */
    invitedByUserId: userRef('invited_by_user_id'),
    instituteId: instituteRef(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roles: text('roles', { enum: ENROLMENT_INVITATION_ROLES }).array().notNull(),
    /** The codice fiscale typed in the enrolment for this person (upper case). */
    taxCode: text('tax_code').notNull(),
    state: text('state', { enum: ENROLMENT_INVITATION_STATES }).notNull().default('in_attesa'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    index('enrolment_invitations_user_idx').on(t.userId, t.state),
    index('enrolment_invitations_institute_idx').on(t.instituteId, t.state),
    uniqueIndex('enrolment_invitations_enrolment_user_idx').on(t.enrolmentId, t.userId),
  ],
);
