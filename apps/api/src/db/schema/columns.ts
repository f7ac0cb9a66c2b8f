import { sql } from 'drizzle-orm';
import { bigint, text, timestamp } from 'drizzle-orm/pg-core';
import { SEARCH_TRANSLATE_FROM, SEARCH_TRANSLATE_TO } from '@portale/shared/lists';

/** Primary key of every table: a positive bigint identity (architecture §0). */
export const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

/** A UTC instant (timestamptz), read as a Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Normalised search text (shared `normaliseSearch`) of several columns in one trigram-indexed,
 * generated column: what `searchCondition` of lib/list.ts searches.
 */
export const searchText = (...columns: string[]) =>
  text('search_text')
    .notNull()
    .generatedAlwaysAs(
      sql.raw(
        `lower(translate(${columns.map((c) => `coalesce(${c}, '')`).join(" || ' ' || ")}, '${SEARCH_TRANSLATE_FROM.replace(/'/g, "''")}', '${SEARCH_TRANSLATE_TO}'))`,
      ),
    );
