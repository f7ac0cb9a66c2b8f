import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { ADHESION_STATES, SCHOOL_LEVELS } from '@portale/shared/registry';
import { users } from './users.ts';
import { id, searchText, ts } from './columns.ts';

const userRef = (name: string) =>
  bigint(name, { mode: 'number' }).references(() => users.id, { onDelete: 'set null' });

export { ADHESION_STATES };

/** Istituto: an institution of the national registry (codice meccanografico = ministryCode). */
export const institutes = pgTable(
  'institutes',
  {
    id: id(),
    ministryCode: text('ministry_code').notNull().unique(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    isStateSchool: boolean('is_state_school').notNull(),
    region: text('region').notNull(),
    province: text('province').notNull(),
    municipalityCode: text('municipality_code').notNull(),
    municipalityName: text('municipality_name').notNull(),
    address: text('address'),
    postalCode: text('postal_code'),
    email: text('email'),
    certifiedEmail: text('certified_email'),
    website: text('website'),
    phone: text('phone'),
    /** Number of plessi, kept by statement triggers on school_sites (migration 0006): lists sort by it. */
    schoolSiteCount: integer('school_site_count').notNull().default(0),
    searchText: searchText('name', 'municipality_name', 'ministry_code'),
    principalUserId: userRef('principal_user_id'),
    firstContactUserId: userRef('first_contact_user_id'),
    adhesionState: text('adhesion_state', { enum: ADHESION_STATES }).notNull().default('nessuna'),
    adhesionStateChangedAt: ts('adhesion_state_changed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('institutes_region_name_idx').on(t.region, t.name, t.id),
    index('institutes_name_idx').on(t.name, t.id),
    // The list's sorts by comune and provincia walk these instead of sorting every row.
    index('institutes_municipality_idx').on(t.municipalityName, t.id),
    index('institutes_province_idx').on(t.province, t.id),
    index('institutes_site_count_idx').on(t.schoolSiteCount, t.id),
    index('institutes_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('institutes_adhesion_state_idx').on(t.adhesionState),
    index('institutes_principal_idx').on(t.principalUserId),
    index('institutes_first_contact_idx').on(t.firstContactUserId),
    // The state machine's states only (product §3): the map and the progress figures index by them.
    check(
      'institutes_adhesion_state_check',
      sql`${t.adhesionState} in (${sql.raw(ADHESION_STATES.map((state) => `'${state}'`).join(', '))})`,
    ),
  ],
);

/** Plesso: a school site of an institute. */
export const schoolSites = pgTable(
  'school_sites',
  {
    id: id(),
    ministryCode: text('ministry_code').notNull().unique(),
    instituteId: bigint('institute_id', { mode: 'number' })
      .notNull()
      .references(() => institutes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    schoolLevel: text('school_level', { enum: SCHOOL_LEVELS }).notNull(),
    typeLabel: text('type_label').notNull(),
    address: text('address'),
    postalCode: text('postal_code'),
    municipalityCode: text('municipality_code').notNull(),
    municipalityName: text('municipality_name').notNull(),
    province: text('province').notNull(),
    region: text('region').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    detectorUserId: userRef('detector_user_id'),
    participating: boolean('participating').notNull().default(false),
    searchText: searchText('name', 'municipality_name', 'ministry_code'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('school_sites_institute_idx').on(t.instituteId),
    index('school_sites_region_name_idx').on(t.region, t.name, t.id),
    index('school_sites_name_idx').on(t.name, t.id),
    // The list's sorts by comune and provincia walk these instead of sorting 56,887 rows.
    index('school_sites_municipality_idx').on(t.municipalityName, t.id),
    index('school_sites_province_idx').on(t.province, t.id),
    index('school_sites_search_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
    index('school_sites_level_idx').on(t.schoolLevel, t.instituteId),
    index('school_sites_detector_idx').on(t.detectorUserId),
    // The few participating plessi (the public figures, the list's filter) without reading every row.
    index('school_sites_participating_idx')
      .on(t.id)
      .where(sql`${t.participating}`),
  ],
);

/**
 * The registry lists' ranked search, narrow (decision 027): one row per institute or plesso holding
 * only what a search reads and ranks by — the normalised `search_text` padded with a space at each
 * end (so a whole word is `like '% word %'` with no text built per row), its length, the code and the
 * name. A common word matches about a thousand rows: reading them here instead of the wide registry
 * rows takes a third off the database's time for a search page. Kept by the triggers of migration
 * 0018 in the statement that writes the registry row; the API only reads it.
 */
const searchTable = (name: string, owner: () => AnyPgColumn) =>
  pgTable(
    name,
    {
      id: bigint('id', { mode: 'number' }).primaryKey().references(owner, { onDelete: 'cascade' }),
      text: text('text').notNull(),
      length: integer('length').notNull(),
      ministryCode: text('ministry_code').notNull(),
      name: text('name').notNull(),
    },
    (t) => [index(`${name}_trgm_idx`).using('gin', sql`${t.text} gin_trgm_ops`)],
  );

export const instituteSearch = searchTable('institute_search', () => institutes.id);
export const schoolSiteSearch = searchTable('school_site_search', () => schoolSites.id);

/** Every dated change of an institute's adhesion state (product §5): the history and the progress figures read it. */
export const instituteAdhesionTransitions = pgTable(
  'institute_adhesion_transitions',
  {
    id: id(),
    instituteId: bigint('institute_id', { mode: 'number' })
      .notNull()
      .references(() => institutes.id, { onDelete: 'cascade' }),
    fromState: text('from_state', { enum: ADHESION_STATES }),
    toState: text('to_state', { enum: ADHESION_STATES }).notNull(),
    actorUserId: userRef('actor_user_id'),
    note: text('note'),
    at: ts('at').notNull(),
  },
  (t) => [
    index('adhesion_transitions_institute_idx').on(t.instituteId, t.at),
    index('adhesion_transitions_at_idx').on(t.at),
  ],
);
