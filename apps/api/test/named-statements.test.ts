import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.ts';
import { rawRows, StatementNames } from '../src/lib/list.ts';

describe('StatementNames', () => {
  it('gives a text the same name every time, another text another name, and no name past the cap', () => {
    const names = new StatementNames(2);
    const first = names.nameOf('select 1');
    expect(first).toBeDefined();
    expect(names.nameOf('select 1')).toBe(first);
    const second = names.nameOf('select 2');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(names.nameOf('select 3')).toBeUndefined();
    expect(names.nameOf('select 1')).toBe(first);
  });
});

describe('rawRows', () => {
  let database: Database;
  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    database = await openDatabase(url ? { databaseUrl: url, pgliteDir: '' } : { pgliteDir: 'memory://' });
  });
  afterAll(() => database.close());

  it('answers every value of one statement text with that value’s rows, raw keys and values', async () => {
    const query = (n: number, label: string) =>
      sql`select ${n}::int + 1 as "next", ${label}::text as "label", true as "flag"`;
    expect(await rawRows(database.db, query(1, 'uno'))).toEqual([{ next: 2, label: 'uno', flag: true }]);
    expect(await rawRows(database.db, query(41, 'l’altro'))).toEqual([
      { next: 42, label: 'l’altro', flag: true },
    ]);
  });

  it.runIf(process.env.DATABASE_URL)(
    'keeps the statement prepared on the PostgreSQL connection that ran it',
    async () => {
      const text = sql`select ${7}::int * 6 as "answer"`;
      expect(await rawRows(database.db, text)).toEqual([{ answer: 42 }]);
      // The pool hands back the connection released last: the one that just ran the statement.
      const result = (await database.db.execute(
        sql`select name, statement from pg_prepared_statements where statement like ${'%* 6 as "answer"%'}`,
      )) as unknown as {
        rows: { name: string; statement: string }[];
      };
      expect(result.rows).toHaveLength(1);
      expect(result.rows[0]!.name).toMatch(/^list_\d+$/);
    },
  );
});
