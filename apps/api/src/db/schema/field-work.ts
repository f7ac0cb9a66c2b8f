import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { VISIT_STATES } from '@portale/shared/field-work';
import { REVIEW_STATES } from '@portale/shared/reviews';
import { schoolSites } from './schools.ts';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

/** A detector (rilevatore): the provinces they cover and whether they are active (product §3). */
export const detectorProfiles = pgTable('detector_profiles', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provinces: text('provinces').array().notNull().default(sql`'{}'::text[]`),
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
    teachersMet: bigint('teachers_met', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
    /** Why it was cancelled or missed. */
    outcomeNote: text('outcome_note'),
    /** Review of the report: null until it is filed. */
    reviewState: text('review_state', { enum: REVIEW_STATES }),
    reviewNote: text('review_note'),
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
