import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { schoolSites } from './schools.ts';
import { ownerUserId as userRef, users } from './users.ts';
import { id, ts } from './columns.ts';

/** Teacher / educator / other participant data of a user (one per user). */
export const teacherProfiles = pgTable(
  'teacher_profiles',
  {
    id: id(),
    userId: userRef().unique(),
    kind: text('kind', { enum: ['insegnante', 'educatore', 'altro'] }).notNull(),
    schoolSiteId: bigint('school_site_id', { mode: 'number' }).references(() => schoolSites.id, {
      onDelete: 'set null',
    }),
    subjects: jsonb('subjects').$type<string[]>().notNull().default([]),
    reviewState: text('review_state', { enum: ['in_attesa', 'approvata', 'da_correggere', 'respinta'] })
      .notNull()
      .default('in_attesa'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('teacher_profiles_school_site_idx').on(t.schoolSiteId),
    // The teachers list by registration date, whole or per review state (decision 033).
    index('teacher_profiles_created_idx').on(t.createdAt, t.id),
    index('teacher_profiles_state_created_idx').on(t.reviewState, t.createdAt, t.id),
  ],
);

/** Single-use e-mail verification links (token stored as SHA-256, 24 h). */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    id: id(),
    userId: userRef(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    /** A change of address asked by the user (decision 041): opening the link moves the account to `email`. */
    changeRequest: boolean('change_request').notNull().default(false),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId, t.createdAt)],
);

/** SMS code checks; the uuid travels in query strings (enrolment guard). */
export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    codeSentAt: ts('code_sent_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    verifiedAt: ts('verified_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('phone_verifications_phone_idx').on(t.phone, t.createdAt),
    index('phone_verifications_user_idx').on(t.userId),
  ],
);

/** Password reset links (token ≥ 256 bits stored as SHA-256, 60 min, single use). */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: userRef(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    ip: text('ip'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId, t.createdAt)],
);

/** TOTP second factor: secret encrypted with the app secret; enabled once the first code is verified. */
export const mfaFactors = pgTable('mfa_factors', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  enabledAt: ts('enabled_at'),
  /** SHA-256 of each unused recovery code. */
  recoveryCodeHashes: jsonb('recovery_code_hashes').$type<string[]>().notNull().default([]),
  /** Last accepted TOTP time step: a code cannot be replayed. */
  lastTimeStep: bigint('last_time_step', { mode: 'number' }),
  createdAt: ts('created_at').notNull(),
});

/** The step between a correct password and the second factor (token stored as SHA-256, 5 min). */
export const mfaChallenges = pgTable('mfa_challenges', {
  id: id(),
  userId: userRef(),
  tokenHash: text('token_hash').notNull().unique(),
  purpose: text('purpose', { enum: ['verify', 'enrol'] }).notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

/** Message templates (Italian); the highest version of a key is the one used. */
export const messageTemplates = pgTable(
  'message_templates',
  {
    id: id(),
    key: text('key').notNull(),
    /** `pdf`: a document (e.g. `documento.adesione`) rendered with pdf-lib from `textBody`. */
    channel: text('channel', { enum: ['email', 'sms', 'pdf'] }).notNull(),
    subject: text('subject'),
    htmlBody: text('html_body'),
    textBody: text('text_body').notNull(),
    version: integer('version').notNull().default(1),
    /** Who saved this version (null: the system's default); the version it restores, if any. */
    createdByUserId: bigint('created_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    restoredFromVersion: integer('restored_from_version'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('message_templates_key_version_idx').on(t.key, t.version)],
);

/** Every e-mail and SMS, written in the transaction of the change that caused it. */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    templateKey: text('template_key').notNull(),
    templateVersion: integer('template_version').notNull(),
    subject: text('subject'),
    htmlBody: text('html_body'),
    textBody: text('text_body').notNull(),
    /** Files sent with an e-mail (a booking's `.ics`): name, content type, base64 content. */
    attachments: jsonb('attachments').$type<{ name: string; contentType: string; base64: string }[]>(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    lastError: text('last_error'),
    deliveryRef: text('delivery_ref'),
    createdAt: ts('created_at').notNull(),
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('outbox_due_idx')
      .on(t.status, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('outbox_recipient_idx').on(t.recipient, t.createdAt),
  ],
);

/** A user's request to delete the account; staff complete it. */
export const deletionRequests = pgTable(
  'deletion_requests',
  {
    id: id(),
    userId: userRef(),
    reason: text('reason'),
    state: text('state', { enum: ['ricevuta', 'completata', 'respinta'] })
      .notNull()
      .default('ricevuta'),
    createdAt: ts('created_at').notNull(),
    handledAt: ts('handled_at'),
    handledByUserId: bigint('handled_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [index('deletion_requests_user_idx').on(t.userId)],
);
