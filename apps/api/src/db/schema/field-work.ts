import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  CONFLICT_CODES,
  CONFLICT_RESOLUTIONS,
  VISIT_STATES,
  VISIT_SUBMISSION_OUTCOMES,
} from '@portale/shared/field-work';
import { REVIEW_FIELDS, REVIEW_STATES } from '@portale/shared/reviews';
import { schoolSites } from './schools.ts';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

/** A detector (rilevatore): the provinces they cover and whether they are active (product §3). */
export const detectorProfiles = pgTable('detector_profiles', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provinces: text('provinces')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/** A visit of a detector to a plesso (product §3, §5). */
export const visits = pgTable(
  'visits',
  {
    id: id(),
    schoolSiteId: bigint('school_site_id', { mode: 'number' })
      .notNull()
      .references(() => schoolSites.id, { onDelete: 'cascade' }),
    detectorUserId: bigint('detector_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    scheduledAt: ts('scheduled_at').notNull(),
    state: text('state', { enum: VISIT_STATES }).notNull().default('pianificata'),
    report: text('report'),
    /** Users (teachers of the plesso) met during the visit. */
    teachersMet: bigint('teachers_met', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    /** Why it was cancelled or missed. */
    outcomeNote: text('outcome_note'),
    /** Review of the report: null until it is filed. */
    reviewState: text('review_state', { enum: REVIEW_STATES }),
    reviewNote: text('review_note'),
    /** The fields the reviewer flagged with the note (issue 35, item 2). */
    reviewFields: text('review_fields', { enum: REVIEW_FIELDS })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    reportedAt: ts('reported_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('visits_site_idx').on(t.schoolSiteId, t.scheduledAt),
    index('visits_detector_idx').on(t.detectorUserId, t.state, t.scheduledAt),
    check('visits_report_when_done', sql`${t.state} <> 'svolta' or ${t.report} is not null`),
  ],
);

/**
 * Every visit report sent with a client-generated id (issue 39, decision 037): the idempotency record
 * (a replay answers `status` and `body` as stored) and, for `conflict`, the submitted version kept for
 * staff to decide (the visit was cancelled or missed meanwhile).
 */
export const visitReportSubmissions = pgTable(
  'visit_report_submissions',
  {
    clientReportId: uuid('client_report_id').primaryKey(),
    visitId: bigint('visit_id', { mode: 'number' })
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    detectorUserId: bigint('detector_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** SHA-256 of the canonical payload (visit, report, sorted teachers): a different payload under the same id is refused. */
    payloadHash: text('payload_hash').notNull(),
    report: text('report').notNull(),
    teachersMet: bigint('teachers_met', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    outcome: text('outcome', { enum: VISIT_SUBMISSION_OUTCOMES }).notNull(),
    /** The visit's state when the report arrived. */
    visitState: text('visit_state', { enum: VISIT_STATES }).notNull(),
    status: integer('status').notNull(),
    body: jsonb('body').notNull(),
    createdAt: ts('created_at').notNull(),
    /** Why it is a conflict (null when accepted); staff's decision on it (issue 39, decision 051). */
    conflictCode: text('conflict_code', { enum: CONFLICT_CODES }),
    /** The staff member who imported it from an exported drafts file (null: the device sent it). */
    importedByUserId: bigint('imported_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    resolution: text('resolution', { enum: CONFLICT_RESOLUTIONS }),
    resolutionNote: text('resolution_note'),
    resolvedByUserId: bigint('resolved_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    index('visit_report_submissions_conflicts_idx').on(t.outcome, t.createdAt),
    index('visit_report_submissions_detector_idx').on(t.detectorUserId, t.createdAt),
    index('visit_report_submissions_visit_idx').on(t.visitId),
  ],
);

/**
 * What each of a detector's devices last said about its unsent visit reports (issue 39, decision 051):
 * staff see "N report non inviati da X giorni" per detector (the sum over devices, the oldest of them).
 */
export const detectorDeviceQueues = pgTable(
  'detector_device_queues',
  {
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A random id the browser chose for itself (kept in its IndexedDB). */
    deviceId: uuid('device_id').notNull(),
    unsent: integer('unsent').notNull(),
    oldestUnsentAt: ts('oldest_unsent_at'),
    reportedAt: ts('reported_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.deviceId] }),
    check('detector_device_queues_unsent_check', sql`${t.unsent} >= 0`),
  ],
);

/**
 * The photos of a visit report (issue 39, decision 055): uploaded with tus after the report, bound to
 * the report's client id and the photo's index (0–4: at most 5 per report, one file per index). The
 * bytes live in the file store (decision 030); the row keeps the key, size and SHA-256.
 */
export const visitReportPhotos = pgTable(
  'visit_report_photos',
  {
    id: id(),
    clientReportId: uuid('client_report_id')
      .notNull()
      .references(() => visitReportSubmissions.clientReportId, { onDelete: 'cascade' }),
    photoIndex: integer('photo_index').notNull(),
    /** The detector who uploaded it (the report's author): the per-detector quota sums these rows. */
    detectorUserId: bigint('detector_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Null once the photo is deleted (its file removed; a file left by a failed removal goes with the sweep). */
    fileKey: text('file_key'),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: ts('created_at').notNull(),
    /**
     * A deleted photo stays as a tombstone (decision 055, amendment): its place (report, index) stays
     * taken, so a replayed upload is answered "already received" instead of bringing the photo back.
     */
    deletedAt: ts('deleted_at'),
    deletedByUserId: bigint('deleted_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
  },
  (t) => [
    uniqueIndex('visit_report_photos_report_index_key').on(t.clientReportId, t.photoIndex),
    index('visit_report_photos_detector_idx').on(t.detectorUserId),
    check('visit_report_photos_index_check', sql`${t.photoIndex} between 0 and 4`),
  ],
);

/**
 * A visit handed from one detector to another (decision 061): a planned visit follows its plesso when
 * staff assign the plesso to another detector, and an accepted conflict gives the visit back to the
 * report's author. The former holder may still send the report they wrote offline: it is kept as a
 * conflict (`visit_reassigned`) for staff to decide, never a silent overwrite nor a lost draft.
 */
export const visitReassignments = pgTable(
  'visit_reassignments',
  {
    id: id(),
    visitId: bigint('visit_id', { mode: 'number' })
      .notNull()
      .references(() => visits.id, { onDelete: 'cascade' }),
    fromDetectorUserId: bigint('from_detector_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    toDetectorUserId: bigint('to_detector_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    reassignedByUserId: bigint('reassigned_by_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    reassignedAt: ts('reassigned_at').notNull(),
  },
  (t) => [index('visit_reassignments_visit_idx').on(t.visitId, t.fromDetectorUserId)],
);
