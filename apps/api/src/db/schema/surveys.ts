import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  QUESTION_TYPES,
  RESPONDENT_GROUPS,
  SURVEY_PARTICIPANTS,
  SURVEY_STATES,
} from '@portale/shared/surveys';
import { schoolSites } from './schools.ts';
import { users } from './users.ts';
import { id, ts } from './columns.ts';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

/** Surveys of the programme (product §3, §5: `bozza` → `aperta` → `chiusa`). `purpose` is the description. */
export const surveys = pgTable('surveys', {
  id: id(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  purpose: text('purpose').notNull(),
  audience: text('audience').notNull(),
  /** Who answers (decision 046): teachers (`insegnanti`), code holders (`codici`) or both. */
  participants: text('participants', { enum: SURVEY_PARTICIPANTS }).notNull().default('entrambi'),
  state: text('state', { enum: SURVEY_STATES }).notNull().default('bozza'),
  opensOn: date('opens_on', { mode: 'string' }).notNull(),
  closesOn: date('closes_on', { mode: 'string' }).notNull(),
  createdByUserId: userRef('created_by_user_id'),
  updatedByUserId: userRef('updated_by_user_id'),
  openedAt: ts('opened_at'),
  closedAt: ts('closed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * A question of a survey, in `position` order. `options` are the choices of the choice types (empty
 * for the others). Questions cannot change once the survey has answers (issue 12).
 */
export const surveyQuestions = pgTable(
  'survey_questions',
  {
    id: id(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    type: text('type', { enum: QUESTION_TYPES }).notNull(),
    label: text('label').notNull(),
    help: text('help').notNull().default(''),
    required: boolean('required').notNull().default(false),
    options: jsonb('options').$type<string[]>().notNull().default([]),
    /** Who sees the question (decision 046), within the survey's participants. */
    participants: text('participants', { enum: SURVEY_PARTICIPANTS }).notNull().default('entrambi'),
  },
  (t) => [index('survey_questions_survey_idx').on(t.surveyId, t.position)],
);

/**
 * An access code (seed-spec §5: 7 letters or digits; typed in any case, decision 037) for a survey and a plesso, and
 * optionally a class, created by a teacher (its owner) or by staff. `uses` is changed only by a
 * conditional update (`uses < max_uses`): the check constraint makes an over-use impossible.
 */
export const accessCodes = pgTable(
  'access_codes',
  {
    id: id(),
    code: text('code').notNull(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    schoolSiteId: bigint('school_site_id', { mode: 'number' })
      .notNull()
      .references(() => schoolSites.id, { onDelete: 'cascade' }),
    classLabel: text('class_label'),
    /** The teacher the code belongs to (a substitution moves it to the incoming teacher); null when staff made it. */
    ownerUserId: userRef('owner_user_id'),
    createdByUserId: userRef('created_by_user_id'),
    maxUses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('access_codes_code_idx').on(t.code),
    // Typed codes are matched without regard to case (decision 037). Not unique: codes made before could
    // differ only by case; such a pair is ambiguous unless typed exactly.
    index('access_codes_code_upper_idx').on(sql`upper(${t.code})`),
    index('access_codes_owner_idx').on(t.ownerUserId, t.surveyId),
    index('access_codes_site_idx').on(t.schoolSiteId, t.surveyId),
    check('access_codes_code_check', sql`${t.code} ~ '^[A-Za-z0-9]{7}$'`),
    check('access_codes_uses_check', sql`${t.maxUses} > 0 and ${t.uses} >= 0 and ${t.uses} <= ${t.maxUses}`),
  ],
);

/**
 * A submitted response: from a logged-in participant (`userId`, one per survey) or from one use of an
 * access code. `answers` maps question id → value (string, string[] or number), validated against the
 * questions. Raw answers never leave the API: results are aggregated and suppressed there.
 */
export const surveyResponses = pgTable(
  'survey_responses',
  {
    id: id(),
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    schoolSiteId: bigint('school_site_id', { mode: 'number' }).references(() => schoolSites.id, {
      onDelete: 'set null',
    }),
    userId: userRef('user_id'),
    accessCodeId: bigint('access_code_id', { mode: 'number' }).references(() => accessCodes.id, {
      onDelete: 'set null',
    }),
    /**
     * Who answered (decision 046): a signed-in participant or the demo (`insegnanti`), or an access code
     * (`codici`). Kept when the user or the code is deleted; results are published per group.
     */
    participantGroup: text('participant_group', { enum: RESPONDENT_GROUPS }).notNull().default('insegnanti'),
    answers: jsonb('answers').$type<Record<string, string | string[] | number>>().notNull(),
    submittedAt: ts('submitted_at').notNull().defaultNow(),
    /**
     * Left out of the published results (decision 029): `sospesa` while staff decide on answers collected
     * through the codes of a rejected teacher (or their own), `scartata` once staff discard them. Null: counted.
     */
    hold: text('hold', { enum: ['sospesa', 'scartata'] }),
  },
  (t) => [
    uniqueIndex('survey_responses_user_idx')
      .on(t.surveyId, t.userId)
      .where(sql`${t.userId} is not null`),
    index('survey_responses_survey_site_idx').on(t.surveyId, t.schoolSiteId),
    index('survey_responses_code_idx').on(t.accessCodeId),
    // A participant's answers (held answers, results versions of migration 0025; decision 033).
    index('survey_responses_participant_idx')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
  ],
);

/**
 * The version of a survey's counted responses (decision 033): raised by the statement triggers of
 * migration 0025 whenever a write changes which responses the published results count (a response
 * added, held, discarded or deleted; a participant's teacher profile approved or no longer approved).
 * The results' cache is stamped with it: one row read instead of counting every response. No row: 0.
 */
// No foreign key: deleting a survey deletes its responses, whose trigger writes this row in the same statement.
export const surveyResultVersions = pgTable('survey_result_versions', {
  surveyId: bigint('survey_id', { mode: 'number' }).primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * The public results' tallies (decision 050), kept by the writes that change them (migration 0036):
 * per survey, group of respondents and atomic group (the plesso's region × level, '' for a response
 * without a plesso), the counted respondents (`question_id` 0, `category` '') and, per aggregable
 * question and category (the category of `categoriesOf`), how many counted respondents fall in it and
 * the first (lowest) response id among them: the order in which tallying the responses one by one
 * meets them, which the suppression follows. Statement triggers on the responses, the teacher
 * profiles (approval decides whether a participant's answers count), the plessi (region and level)
 * and the questions keep it equal to counting the responses, in the writer's transaction.
 */
export const surveyResultTallies = pgTable(
  'survey_result_tallies',
  {
    surveyId: bigint('survey_id', { mode: 'number' }).notNull(),
    participantGroup: text('participant_group').notNull(),
    region: text('region').notNull(),
    schoolLevel: text('school_level').notNull(),
    questionId: bigint('question_id', { mode: 'number' }).notNull(),
    category: text('category').notNull(),
    n: integer('n').notNull(),
    firstId: bigint('first_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({
      name: 'survey_result_tallies_pk',
      columns: [t.surveyId, t.participantGroup, t.region, t.schoolLevel, t.questionId, t.category],
    }),
  ],
);

/**
 * The published results of a closed survey for one group of respondents, as the suppression left
 * them (decision 058): computed once in the background when the survey closes (and again when its
 * stamp changes), so that no visitor waits for the suppression and a restart does not redo it. The
 * stamp names everything the figures depend on (the responses' versions of this survey and of the
 * earlier waves it is compared with, their closing times, the smallest group, the suppression's
 * version); a row whose stamp is not the current one is never served. Only what the results page
 * publishes is stored: no answer, no small count.
 */
export const surveyResultSnapshots = pgTable(
  'survey_result_snapshots',
  {
    surveyId: bigint('survey_id', { mode: 'number' })
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    participantGroup: text('participant_group').notNull(),
    stamp: text('stamp').notNull(),
    payload: jsonb('payload').notNull(),
    computedAt: ts('computed_at').notNull(),
    computeMs: integer('compute_ms').notNull(),
  },
  (t) => [primaryKey({ name: 'survey_result_snapshots_pk', columns: [t.surveyId, t.participantGroup] })],
);
