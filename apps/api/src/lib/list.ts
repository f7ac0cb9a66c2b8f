import {
  and,
  asc,
  desc,
  fillPlaceholders,
  is,
  Placeholder,
  sql,
  type AnyColumn,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { searchWords } from '@portale/shared/lists';
import { isEmbedded, type Db } from '../db/client.ts';
import type { DbOrTx } from '../db/transaction.ts';

/**
 * Server-side lists (docs/list-pattern.md): a zod query schema from shared has already validated
 * filters, sort (a whitelist) and page; these helpers turn it into SQL.
 */

/** Escapes LIKE wildcards so that user text matches literally. */
export function likeLiteral(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Free-text search on a normalised `search_text` column: every word must appear. Each word is a LIKE
 * on the same column, which its GIN trigram index answers (no OR of predicates, no sequential scan).
 */
export function searchCondition(
  searchColumn: AnyColumn,
  q: string | undefined,
  bind: Bind = asValue,
): SQL | undefined {
  const words = searchWords(q);
  if (words.length === 0) return undefined;
  return and(...words.map((w) => sql`${searchColumn} like ${bind(`%${likeLiteral(w)}%`)}`));
}

/**
 * Puts a value into a list's query: as it is (a parameter of the statement), or, for a statement
 * kept by its shape (`listRows`), as a placeholder that each page fills with its own value.
 */
export type Bind = <T>(value: T) => T | Placeholder;
export const asValue: Bind = (value) => value;

/**
 * What a ranked search reads of each row: the normalised text with a space at each end (whole words)
 * and the text's length. A `search_text` column gives them computed per row; a registry search table
 * (decision 027) stores them.
 */
export interface SearchText {
  padded: AnyColumn | SQL;
  length: AnyColumn | SQL;
}

function searchTextOf(search: AnyColumn | SearchText): SearchText {
  return 'padded' in search
    ? search
    : { padded: sql`(' ' || ${search} || ' ')`, length: sql`length(${search})` };
}

/**
 * Closest rows first, among rows that already contain every word of `q` (searchCondition): those
 * where every word stands as a whole word, then the shortest normalised text (the fewest other
 * words). For such rows this orders about as trigram `similarity()` does, at a third of its cost:
 * similarity extracts the trigrams of every candidate row, which for a common word (hundreds of
 * candidates) was two thirds of the query's time (decision 012, "Ranking"). A word beside
 * punctuation (`"liceo`, `(roma)`) is not counted as whole; its row still ranks by length.
 */
export function closestFirst(search: AnyColumn | SearchText, q: string, bind: Bind = asValue): SQL[] {
  const words = searchWords(q);
  // A search without words (only punctuation) filters nothing and ranks nothing: the list's order stays.
  if (words.length === 0) return [];
  const { padded, length } = searchTextOf(search);
  const whole = and(...words.map((w) => sql`${padded} like ${bind(`% ${likeLiteral(w)} %`)}`));
  return [desc(sql`(${whole})`), asc(length)];
}

/** Relevance for a search: the exact code first, then the closest rows (closestFirst). */
export function searchRank(
  codeColumn: AnyColumn,
  search: AnyColumn | SearchText,
  q: string,
  bind: Bind = asValue,
): SQL[] {
  return [desc(sql`(${codeColumn} = ${bind(q.trim().toUpperCase())})`), ...closestFirst(search, q, bind)];
}

/** A registry search table (schema `searchTable`, decision 027): one narrow row per registry row. */
export interface SearchTable {
  id: AnyColumn;
  text: AnyColumn;
  length: AnyColumn;
  ministryCode: AnyColumn;
  name: AnyColumn;
}

/** searchRank over a search table, then by name and id: a search page's whole order, read from the search rows only. */
export function searchTableRank(table: SearchTable, q: string, bind: Bind = asValue): SQL[] {
  return [
    ...searchRank(table.ministryCode, { padded: table.text, length: table.length }, q, bind),
    asc(table.name),
    asc(table.id),
  ];
}

export interface SortSpec<K extends string> {
  column: K;
  direction: 'asc' | 'desc';
}

/**
 * ORDER BY for a whitelisted sort key, with the id as tie-breaker so pages never overlap. The id
 * follows the direction, so that a (column, id) index serves both directions.
 */
export function orderByOf<K extends string>(
  sort: SortSpec<K>,
  columns: Record<K, AnyColumn | SQL>,
  id: AnyColumn,
): SQL[] {
  const by = sort.direction === 'desc' ? desc : asc;
  return [by(columns[sort.column]), by(id)];
}

export interface Page<T> {
  items: T[];
  total: number;
  /** Set (true) when `total` is the planner's estimate, past EXACT_COUNT_CAP rows (decision 033). */
  totalApproximate?: boolean;
  page: number;
  pageSize: number;
}

/** A list's total: exact, or an estimate flagged as such (cappedCount). */
export interface Total {
  total: number;
  approximate: boolean;
}

/** Runs the page query and the count (the same filters); a page past the end is an empty page. */
export async function paginate<T>(
  rows: (limit: number, offset: number) => Promise<T[]>,
  count: () => Promise<number | Total>,
  page: number,
  pageSize: number,
): Promise<Page<T>> {
  const [items, counted] = await Promise.all([rows(pageSize, (page - 1) * pageSize), count()]);
  if (typeof counted === 'number') return { items, total: counted, page, pageSize };
  return {
    items,
    total: counted.total,
    ...(counted.approximate ? { totalApproximate: true } : {}),
    page,
    pageSize,
  };
}

/**
 * Up to this many matching rows a list's total is exact; past it, an estimate (decision 033). Counting
 * 1,001 rows costs a few milliseconds whatever the table's size; counting 200,000 joined rows on every
 * page cost most of a list page's time at national volume (issue 40).
 */
export const EXACT_COUNT_CAP = 1000;

/** The count of every row of `rows` (a list's "conta esattamente"). */
const exactCountOf = (rows: SQLWrapper) => sql`select count(*)::int as n from (${rows}) counted`;
/** The count of the rows of `rows` up to one past EXACT_COUNT_CAP. */
const cappedCountOf = (rows: SQLWrapper) =>
  sql`select count(*)::int as n from (${rows} limit ${sql.raw(String(EXACT_COUNT_CAP + 1))}) counted`;
/** The planner's plan of `rows`, whose row estimate is a total past the cap. */
const explainOf = (rows: SQLWrapper) => sql`explain (format json) ${rows}`;

/**
 * The total of a list: `rows` selects the matching rows (any columns, no order, no limit). Exact when
 * asked (`exact`, the list's "conta esattamente") or when at most EXACT_COUNT_CAP rows match; otherwise
 * the planner's estimate of the rows (never below the cap), flagged approximate, which the web shows
 * as "circa N".
 */
export async function cappedCount(db: DbOrTx, rows: SQLWrapper, exact = false): Promise<Total> {
  if (exact) return { total: await rawCount(db, exactCountOf(rows)), approximate: false };
  const n = await rawCount(db, cappedCountOf(rows));
  if (n <= EXACT_COUNT_CAP) return { total: n, approximate: false };
  return { total: Math.max(EXACT_COUNT_CAP + 1, await estimatedRows(db, rows)), approximate: true };
}

/**
 * The planner's estimate of the rows of a query (EXPLAIN, no execution). Named like a list's statements
 * (decision 060): PostgreSQL plans the query again with each call's values (a utility statement is
 * never kept planned), only its parsing is saved.
 */
export async function estimatedRows(db: DbOrTx, query: SQLWrapper): Promise<number> {
  return planRowsOf(await rawRows(db, explainOf(query)));
}

function planRowsOf([row]: Record<string, unknown>[]): number {
  const value = row ? Object.values(row)[0] : undefined;
  const plan = (typeof value === 'string' ? JSON.parse(value) : value) as
    { Plan: { 'Plan Rows': number } }[] | undefined;
  return Math.round(plan?.[0]?.Plan['Plan Rows'] ?? 0);
}

/** The shapes whose last capped count passed the cap: their estimate is asked beside the count. */
const broadShapes = new Set<string>();

/**
 * cappedCount of a list whose statements are kept by their shape (decision 028): the same statements
 * and the same answer, without turning them into text on every page. `rows(bind)` selects the
 * matching rows with every value bound. The estimate does not depend on the count, so when this shape's
 * last count passed the cap it is asked at the same time as the count instead of after it (decision
 * 059); if the count then comes back at most the cap, the estimate is simply not used.
 */
export async function shapedCappedCount(
  db: DbOrTx,
  shape: string,
  rows: (bind: Bind) => SQLWrapper,
  exact = false,
): Promise<Total> {
  const countOf = async (kind: string, build: (bind: Bind) => SQLWrapper) => {
    const [row] = await listRows(db, `${shape}#${kind}`, build);
    return row ? rowValue.int(Object.values(row)[0] ?? 0) : 0;
  };
  if (exact) return { total: await countOf('exact', (bind) => exactCountOf(rows(bind))), approximate: false };
  const estimate = async () =>
    planRowsOf(
      await statementRows(
        db,
        shapedStatements.statement(`${shape}#estimate`, (bind) => explainOf(rows(bind))),
      ),
    );
  const early = broadShapes.has(shape) ? estimate() : undefined;
  // Not used when the count is exact: its failure then is nobody's.
  early?.catch(() => undefined);
  const n = await countOf('capped', (bind) => cappedCountOf(rows(bind)));
  if (n <= EXACT_COUNT_CAP) {
    broadShapes.delete(shape);
    return { total: n, approximate: false };
  }
  if (broadShapes.size < 256) broadShapes.add(shape);
  return { total: Math.max(EXACT_COUNT_CAP + 1, await (early ?? estimate())), approximate: true };
}

/** Query keys that do not change a total. */
const NOT_FILTERS = new Set(['sort', 'page', 'pageSize', 'format', 'exactTotal']);

/**
 * Totals of recent filters, so that paging through one list does not count the same rows on every
 * page. Entries live `ttlMs`, per database; a write through the repository clears them at once in this
 * process (other API instances see it after at most `ttlMs`: docs/list-pattern.md): every total when
 * rows come or go, or only the totals of the filters that read the fields it changed (`clear(['q'])`).
 */
export class CountCache {
  private byDb = new WeakMap<object, Map<string, { at: number; stamp: string; value: Promise<number> }>>();
  /** Bumped by a write that clears the totals of one filter: a total counted before is not used. */
  private readonly generations = new Map<string, number>();
  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 500,
  ) {}

  get(db: object, filters: object, count: () => Promise<number>): Promise<number> {
    const used = Object.entries(filters).filter(([k, v]) => !NOT_FILTERS.has(k) && v !== undefined);
    const key = JSON.stringify(used);
    const stamp = used.map(([k]) => this.generations.get(k) ?? 0).join(',');
    let entries = this.byDb.get(db);
    if (!entries) this.byDb.set(db, (entries = new Map()));
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && hit.stamp === stamp && now - hit.at < this.ttlMs) return hit.value;
    const value = count();
    value.catch(() => entries.delete(key));
    entries.delete(key);
    entries.set(key, { at: now, stamp, value });
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value!);
    return value;
  }

  /** Forgets every total, or only those of the filters named (a write that changed what they read). */
  clear(filters?: readonly string[]): void {
    if (!filters) {
      this.byDb = new WeakMap();
      return;
    }
    for (const filter of filters) this.generations.set(filter, (this.generations.get(filter) ?? 0) + 1);
  }
}

/** `select count(*)` of a filtered query, as a number. */
export const countAll = sql<number>`count(*)::int`;

/** Runs `task` in a transaction whose statements PostgreSQL cancels (57014) after `ms` milliseconds. */
export function withStatementTimeout<T>(
  db: DbOrTx,
  ms: number,
  task: (tx: DbOrTx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${Math.floor(ms)}`));
    return task(tx);
  });
}

let cursorSequence = 0;

/** Lets the event loop serve other requests (health, login) between two batches of an export. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads the rows of `query` through a server-side cursor, `batchSize` at a time (100: one batch of XLSX is a short turn of the event loop), handing each batch
 * to `consume` and waiting for it (back-pressure): memory stays flat however many rows match. Rows
 * come from the driver as they are (aliased column names, raw types): map them with `mapRow`.
 * `consume` returning false stops early.
 *
 * On PostgreSQL the cursor lives in one transaction on one pooled connection (a consistent
 * snapshot). The embedded database has a single connection, and a transaction holds it, and every
 * other request, for the whole export (a health probe waited 120 s behind six exports, issue 32):
 * there the cursor is declared `WITH HOLD` outside a transaction, so the query runs once (its result
 * kept by the database, a consistent snapshot too) and each batch is one short `FETCH` between the
 * other requests' statements. Between batches the event loop serves other requests either way.
 */
export async function forEachBatch<T>(
  db: DbOrTx,
  query: SQLWrapper,
  mapRow: (row: Record<string, unknown>) => T,
  consume: (batch: T[]) => Promise<boolean | void>,
  batchSize = 100,
): Promise<void> {
  if (isEmbedded(db as Db)) {
    const name = `list_export_${++cursorSequence}`;
    await db.execute(sql`declare ${sql.raw(name)} no scroll cursor with hold for ${query}`);
    try {
      for (;;) {
        const rows = await unnamedRows(db, sql.raw(`fetch forward ${batchSize} from ${name}`));
        if (rows.length === 0) break;
        if ((await consume(rows.map(mapRow))) === false) break;
        await yieldTurn();
      }
    } finally {
      await db.execute(sql.raw(`close ${name}`));
    }
    return;
  }
  await db.transaction(async (tx) => {
    await tx.execute(sql`declare list_export no scroll cursor for ${query}`);
    for (;;) {
      const rows = await unnamedRows(tx, sql.raw(`fetch forward ${batchSize} from list_export`));
      if (rows.length === 0) break;
      if ((await consume(rows.map(mapRow))) === false) break;
      await yieldTurn();
    }
    await tx.execute(sql`close list_export`);
  });
}

/**
 * Names every selected expression (`expr as "key"`), so that list pages and cursor exports read the
 * same keys from the driver; map the raw values with `rowValue` helpers.
 */
export function aliased<K extends string>(fields: Record<K, AnyColumn | SQL>): Record<K, SQL.Aliased> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, expr]) => [key, sql`${expr}`.as(key)]),
  ) as Record<K, SQL.Aliased>;
}

const dialect = new PgDialect();

/**
 * Names for statement texts: PostgreSQL keeps a named statement parsed and planned on each pooled
 * connection, about 130 KB for a list page (measured with `pg_backend_memory_contexts`). A list's
 * text depends only on the shape of its filters (values are parameters), so a few dozen texts serve
 * every page; past `max` texts a new text gets no name (it runs as before), which bounds what each
 * connection keeps (64 texts: about 8 MB) when a client tries every combination of filters.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  constructor(private readonly max = 64) {}

  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.max) {
      name = `list_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }
}

/** One set of names per process: a name always stands for the same text on every connection. */
const statementNames = new StatementNames();

/**
 * The rows of `query` as the driver returns them (aliased keys, raw values), for mappers written with
 * `rowValue`, as the list's export reads them: drizzle's own mapping of each row first (three class
 * checks per aliased field, per row) was 13.5 % of a search page's CPU in the API (decision 012, "Rows").
 * On PostgreSQL the statement is named (StatementNames): each connection parses it once instead of
 * on every page, and PostgreSQL reuses its plan where that plan is as good: about a quarter less
 * database CPU per search page (decision 012, "Statements"). The embedded database ignores the name.
 */
export function rawRows(db: DbOrTx, query: SQLWrapper): Promise<Record<string, unknown>[]> {
  return statementRows(db, dialect.sqlToQuery(query.getSQL()));
}

async function statementRows(
  db: DbOrTx,
  statement: { sql: string; params: unknown[] },
): Promise<Record<string, unknown>[]> {
  const prepared = db._.session.prepareQuery(
    statement,
    undefined,
    statementNames.nameOf(statement.sql),
    false,
  );
  return ((await prepared.execute()) as { rows: Record<string, unknown>[] }).rows;
}

/**
 * List statements kept by their shape (decision 028). Drizzle turning a page's query into text cost
 * about 100 µs, a fifth of the API's CPU for a search page, yet the text depends only on the shape of
 * the filters: which are set, the sort, the number of search words (`listShape`); the values are
 * parameters. `build(bind)` builds the query with `bind(value)` in place of every value. The first page
 * of a shape turns it into text with placeholders, and the text is kept; every page runs `build` for
 * its own values (building the query is a tenth of the cost) and fills them in. A value left unbound
 * would be the first page's for every later page, so an unbound value is refused; under the test
 * runner every page also checks that its shape still stands for the same text.
 */
export class ShapedStatements {
  private readonly byShape = new Map<string, { sql: string; params: unknown[] }>();
  constructor(
    private readonly max = 256,
    private readonly verify = process.env.VITEST !== undefined,
  ) {}

  statement(shape: string, build: (bind: Bind) => SQLWrapper): { sql: string; params: unknown[] } {
    const values: unknown[] = [];
    const query = build((value) => {
      values.push(value);
      return sql.placeholder(String(values.length - 1));
    });
    let kept = this.byShape.get(shape);
    if (!kept || this.verify) {
      const built = dialect.sqlToQuery(query.getSQL());
      if (!built.params.every((param) => is(param, Placeholder)))
        throw new Error(`A value of the list statement ${shape} is not bound`);
      if (kept && kept.sql !== built.sql)
        throw new Error(`The list shape ${shape} stands for two statements`);
      kept = built;
      if (this.byShape.size < this.max) this.byShape.set(shape, built);
    }
    return {
      sql: kept.sql,
      params: fillPlaceholders(kept.params, values as unknown as Record<string, unknown>),
    };
  }
}

/** Query keys that do not change a list statement's text (their values are bound, or they are not filters). */
const NOT_IN_SHAPE = new Set(['page', 'pageSize', 'format', 'exactTotal']);

/** The shape of a list query (ShapedStatements): the filters set, the sort, and how many words are searched. */
export function listShape(list: string, filters: object): string {
  const parts = Object.entries(filters)
    .filter(([key, value]) => !NOT_IN_SHAPE.has(key) && value !== undefined && value !== null && value !== '')
    .map(([key, value]) =>
      key === 'q'
        ? `q:${searchWords(value as string).length}`
        : key === 'sort'
          ? `sort:${JSON.stringify(value)}`
          : key,
    )
    .sort();
  return `${list}(${parts.join(',')})`;
}

const shapedStatements = new ShapedStatements();

/** rawRows of a list statement kept by its shape (ShapedStatements): `build(bind)` must bind every value. */
export function listRows(
  db: DbOrTx,
  shape: string,
  build: (bind: Bind) => SQLWrapper,
): Promise<Record<string, unknown>[]> {
  return statementRows(db, shapedStatements.statement(shape, build));
}

/** The single value of a count query (`select count(*) …`), through rawRows: a named statement too. */
export async function rawCount(db: DbOrTx, query: SQLWrapper): Promise<number> {
  const [row] = await rawRows(db, query);
  return row ? rowValue.int(Object.values(row)[0] ?? 0) : 0;
}

/** Rows of a statement that must not be named (cursor commands): drizzle's `execute`, raw rows. */
async function unnamedRows(db: DbOrTx, query: SQLWrapper): Promise<Record<string, unknown>[]> {
  return ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

/** Raw driver values to DTO values: int8 may arrive as a string, timestamps as Date or string. */
export const rowValue = {
  int: (v: unknown): number => Number(v),
  text: (v: unknown): string => String(v ?? ''),
  textOrNull: (v: unknown): string | null => (v === null || v === undefined ? null : String(v)),
  bool: (v: unknown): boolean => v === true || v === 't' || v === 'true',
  date: (v: unknown): Date | null =>
    v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)),
  iso: (v: unknown): string | null => rowValue.date(v)?.toISOString() ?? null,
};
