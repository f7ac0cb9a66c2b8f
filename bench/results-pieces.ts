// The pieces of the first results call (decision 050), timed one by one on a bench database: the
// tallies recounted from the responses (decision 033's SQL), the tallies read from the table the
// writes keep (migration 0036, when present), and the suppression on them (main thread), with the
// process's heap and RSS around each. Usage: DATABASE_URL=<bench db> npx tsx bench/results-pieces.ts
import { writeFileSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { groupsOf, questionsForGroup, RESULTS_MIN_GROUP } from '@portale/shared/surveys';
import type { Db } from '../apps/api/src/db/client.ts';
import * as schema from '../apps/api/src/db/schema/index.ts';
import { findQuestions } from '../apps/api/src/modules/surveys/surveys.repository.ts';
import {
  countResultTallies,
  listClosedSurveys,
  resultTallies,
} from '../apps/api/src/modules/results/results.repository.ts';
import { itemsInSql, itemsOf } from '../apps/api/src/modules/results/results-items.ts';
import { suppressTallies, suppressionSize } from '../apps/api/src/modules/results/results-suppression.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const recorded: { text: string; params: unknown[] }[] = [];
const db = drizzle(pool, {
  schema,
  logger: { logQuery: (text, params) => void recorded.push({ text, params }) },
}) as unknown as Db;
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

async function timed<T>(label: string, run: () => Promise<T> | T): Promise<T> {
  const rss = process.memoryUsage().rss;
  const started = performance.now();
  const value = await run();
  const ms = performance.now() - started;
  console.log(`${label}: ${ms.toFixed(0)} ms (RSS ${mib(rss)} → ${mib(process.memoryUsage().rss)})`);
  return value;
}

const closed = await listClosedSurveys(db);
const survey = closed[0]!;
const group = groupsOf(survey.participants)[0]!;
const questions = questionsForGroup(survey.participants, await findQuestions(db, survey.id), group).filter(
  (q) => q.type === 'scelta_singola' || q.type === 'scelta_multipla' || q.type === 'scala',
);
const items = itemsOf(questions);
console.log(`survey ${survey.id} (${survey.title}), group ${group}, ${items.length} items`);
const counted = await timed('tallies recounted from the responses (SQL)', () =>
  countResultTallies(db, survey.id, itemsInSql(questions), group),
);
// EXPLAIN=1: the plans of the recount's statements and of the kept tallies' read.
async function explain(from: number) {
  if (!process.env.EXPLAIN) return;
  for (const s of recorded.slice(from)) {
    const plan = await pool.query(`explain (analyze, buffers off) ${s.text}`, s.params);
    console.log(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
  }
}
await explain(recorded.findIndex((s) => s.text.includes('count(*) filter')));
const hasKept = (
  await pool.query(`select 1 from information_schema.tables where table_name = 'survey_result_tallies'`)
).rowCount;
if (hasKept) {
  const from = recorded.length;
  const kept = await timed('tallies read from survey_result_tallies', () =>
    resultTallies(db, survey.id, itemsInSql(questions), group),
  );
  await explain(from);
  const same =
    JSON.stringify([kept.groups, [...kept.pairs]]) === JSON.stringify([counted.groups, [...counted.pairs]]);
  console.log(`kept tallies equal the recount: ${same}`);
}
let cells = 0;
for (const p of counted.pairs.values()) cells += p.length;
console.log(
  `groups ${counted.groups.length}, pairs ${cells}, suppression size ${suppressionSize(items, counted)}`,
);
// DUMP_TALLIES=<file>: the items and tallies as JSON, for bench/results-audit.ts.
if (process.env.DUMP_TALLIES)
  writeFileSync(
    process.env.DUMP_TALLIES,
    JSON.stringify({ items, groups: counted.groups, pairs: [...counted.pairs], minGroup: RESULTS_MIN_GROUP }),
  );
// NO_SUPPRESSION=1: the tallies only.
if (!process.env.NO_SUPPRESSION) {
  for (let i = 0; i < Number(process.env.ROUNDS ?? 1); i++)
    await timed('suppression (main thread)', () => suppressTallies(items, counted, RESULTS_MIN_GROUP));
  const results = suppressTallies(items, counted, RESULTS_MIN_GROUP);
  await timed('serialisation of every view (JSON)', () => JSON.stringify([...results.views]).length);
}
await pool.end();
