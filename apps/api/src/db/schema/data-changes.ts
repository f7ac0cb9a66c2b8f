import { bigint, date, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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

/**
 * Counts that staff screens show, kept by the writes that change them (decision 033): statement
 * triggers of migration 0024 add each statement's rows per key, in the writer's transaction, so a
 * reader sees the counts of its snapshot. `teacher_review_state`: teacher profiles per review state;
 * `reviews:<type>`: the items of a review queue per state. The dashboard and the queues' filter chips
 * read a handful of rows instead of grouping whole tables.
 */
export const tallies = pgTable(
  'tallies',
  {
    name: text('name').notNull(),
    key: text('key').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.name, t.key] })],
);

/**
 * The programme's dated events per day (Europe/Rome), region and figure, kept by the writes that
 * change them (decision 033, progress): statement triggers of migration 0027 add each statement's
 * difference in the writer's transaction, and move the events of a plesso or an institute whose
 * region changes, so the rollup always equals grouping the records themselves (the reference query
 * in the tests). `region` is '' for an event with no plesso; `metric` is the transition's target
 * state or the figure's name. `/api/progress` sums a few thousand rows instead of grouping every
 * event of the school year.
 */
export const progressDaily = pgTable(
  'progress_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    region: text('region').notNull(),
    metric: text('metric').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.region, t.metric] })],
);
