import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { id } from './columns.ts';

/**
 * A log of writes that derived answers depend on (decision 020): statement triggers add one row per
 * writing statement (migration 0012), inside the writer's transaction, so a reader sees exactly the
 * changes committed in its snapshot. `sum(weight)` of a topic is its data version; old rows are folded
 * into one of the same total weight (lib/data-version.repository.ts), so the table stays a handful of rows.
 */
export const dataChanges = pgTable(
  'data_changes',
  {
    id: id(),
    topic: text('topic').notNull(),
    weight: bigint('weight', { mode: 'number' }).notNull().default(1),
  },
  (t) => [index('data_changes_topic_idx').on(t.topic, t.id)],
);
