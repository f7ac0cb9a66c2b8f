import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ACTION_EVIDENCE, ACTION_STATES, ACTION_TARGETS } from '@portale/shared/actions';
import { SUBSTITUTION_STATES } from '@portale/shared/substitutions';
import { bytea } from './onboarding.ts';
import { institutes, schoolSites } from './schools.ts';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

/**
 * A request to replace a teacher of a plesso (product §3, §5: `richiesta` → `approvata` | `respinta`).
 * The incoming teacher is an existing user or an invited e-mail. Approval moves the plesso
 * participation, the classes and the survey assignments (access codes) to the incoming teacher.
 */
export const substitutions = pgTable(
  'substitutions',
  {
    id: id(),
    schoolSiteId: bigint('school_site_id', { mode: 'number' })
      .notNull()
      .references(() => schoolSites.id, { onDelete: 'cascade' }),
    outgoingUserId: bigint('outgoing_user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    incomingUserId: userRef('incoming_user_id'),
    /** The invited address when the incoming teacher has no account yet (lower case). */
    incomingEmail: text('incoming_email'),
    incomingName: text('incoming_name'),
    reason: text('reason').notNull(),
    effectiveOn: date('effective_on', { mode: 'string' }).notNull(),
    state: text('state', { enum: SUBSTITUTION_STATES }).notNull().default('richiesta'),
    requestedByUserId: userRef('requested_by_user_id'),
    decidedByUserId: userRef('decided_by_user_id'),
    decisionNote: text('decision_note'),
    decidedAt: ts('decided_at'),
    /** When an approved substitution took effect (on `effective_on`, decision 038); null until then. */
    appliedAt: ts('applied_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    index('substitutions_state_idx').on(t.state, t.createdAt),
    /** Approved substitutions waiting for their date (the scheduled job's search). */
    index('substitutions_due_idx')
      .on(t.effectiveOn)
      .where(sql`${t.state} = 'approvata' and ${t.appliedAt} is null`),
    index('substitutions_site_idx').on(t.schoolSiteId, t.createdAt),
    /** One open request per outgoing teacher and plesso. */
    uniqueIndex('substitutions_open_idx')
      .on(t.schoolSiteId, t.outgoingUserId)
      .where(sql`${t.state} = 'richiesta'`),
    check(
      'substitutions_incoming_check',
      sql`${t.incomingUserId} is not null or ${t.incomingEmail} is not null`,
    ),
  ],
);

/** A model actions are created from (product §3), managed by the super-admin. */
export const actionModels = pgTable('action_models', {
  id: id(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  category: text('category').notNull(),
  target: text('target', { enum: ACTION_TARGETS }).notNull(),
  defaultDurationDays: integer('default_duration_days').notNull(),
  evidence: text('evidence', { enum: ACTION_EVIDENCE }).notNull().default('nessuna'),
  active: boolean('active').notNull().default(true),
  createdByUserId: userRef('created_by_user_id'),
  updatedByUserId: userRef('updated_by_user_id'),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * An action assigned from a model to one target (an institute, a plesso or a teacher: exactly the one
 * column of the model's target is set). `target_key` (`istituto:12`) is unique per model, so a retried
 * bulk assignment (`INSERT … ON CONFLICT DO NOTHING`) never assigns twice.
 */
export const actions = pgTable(
  'actions',
  {
    id: id(),
    modelId: bigint('model_id', { mode: 'number' })
      .notNull()
      .references(() => actionModels.id, { onDelete: 'restrict' }),
    target: text('target', { enum: ACTION_TARGETS }).notNull(),
    targetKey: text('target_key').notNull(),
    instituteId: bigint('institute_id', { mode: 'number' }).references(() => institutes.id, {
      onDelete: 'cascade',
    }),
    schoolSiteId: bigint('school_site_id', { mode: 'number' }).references(() => schoolSites.id, {
      onDelete: 'cascade',
    }),
    teacherUserId: bigint('teacher_user_id', { mode: 'number' }).references(() => users.id, {
      onDelete: 'cascade',
    }),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    state: text('state', { enum: ACTION_STATES }).notNull().default('da_fare'),
    evidenceText: text('evidence_text'),
    evidenceFileName: text('evidence_file_name'),
    evidenceContentType: text('evidence_content_type'),
    /** Legacy: evidence bytes of rows written before decision 030 (read until moved to the file store). */
    evidenceFile: bytea('evidence_file'),
    /** The evidence file in the file store (decision 030). */
    evidenceFileKey: text('evidence_file_key'),
    evidenceSizeBytes: integer('evidence_size_bytes'),
    /** Why staff sent the evidence back. */
    staffNote: text('staff_note'),
    assignedByUserId: userRef('assigned_by_user_id'),
    completedByUserId: userRef('completed_by_user_id'),
    verifiedByUserId: userRef('verified_by_user_id'),
    completedAt: ts('completed_at'),
    verifiedAt: ts('verified_at'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('actions_model_target_idx').on(t.modelId, t.targetKey),
    index('actions_state_due_idx').on(t.state, t.dueOn),
    index('actions_institute_idx')
      .on(t.instituteId)
      .where(sql`${t.instituteId} is not null`),
    index('actions_site_idx')
      .on(t.schoolSiteId)
      .where(sql`${t.schoolSiteId} is not null`),
    index('actions_teacher_idx')
      .on(t.teacherUserId)
      .where(sql`${t.teacherUserId} is not null`),
    check(
      'actions_one_target_check',
      sql`(${t.target} = 'istituto' and ${t.instituteId} is not null and ${t.schoolSiteId} is null and ${t.teacherUserId} is null)
        or (${t.target} = 'plesso' and ${t.schoolSiteId} is not null and ${t.instituteId} is null and ${t.teacherUserId} is null)
        or (${t.target} = 'insegnante' and ${t.teacherUserId} is not null and ${t.instituteId} is null and ${t.schoolSiteId} is null)`,
    ),
  ],
);
