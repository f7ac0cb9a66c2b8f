import { sql, type SQLWrapper } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SchoolSiteListQuerySchema } from '@portale/shared/registry';
import { listShape, ShapedStatements, type Bind } from '../src/lib/list.ts';
import * as schema from '../src/db/schema/index.ts';
import { schoolSitePageQuery } from '../src/modules/registry/school-sites.repository.ts';

/** A query builder that counts how often its query is turned into text. */
function counted(build: (bind: Bind) => SQLWrapper) {
  let texts = 0;
  return {
    build: (bind: Bind) => {
      const query = build(bind);
      return { getSQL: () => (texts++, query.getSQL()) };
    },
    texts: () => texts,
  };
}

describe('ShapedStatements (decision 028)', () => {
  const byRegion = (region: string) => (bind: Bind) =>
    sql`select id from school_sites where region = ${bind(region)} limit ${bind(25)}`;

  it('turns a shape into text once; every page fills in its own values', () => {
    const statements = new ShapedStatements(256, false);
    const lazio = counted(byRegion('Lazio'));
    const first = statements.statement('sites(region)', lazio.build);
    const lombardia = counted(byRegion('Lombardia'));
    const second = statements.statement('sites(region)', lombardia.build);
    expect(first).toEqual({
      sql: 'select id from school_sites where region = $1 limit $2',
      params: ['Lazio', 25],
    });
    expect(second).toEqual({ sql: first.sql, params: ['Lombardia', 25] });
    expect([lazio.texts(), lombardia.texts()]).toEqual([1, 0]);
  });

  it('refuses a value left unbound, which would be the first page’s for every page', () => {
    const statements = new ShapedStatements(256, false);
    expect(() =>
      statements.statement(
        'sites(region)',
        (bind) => sql`select id from school_sites where region = ${'Lazio'} limit ${bind(25)}`,
      ),
    ).toThrow(/not bound/);
  });

  it('under the test runner, catches a shape that stands for two statements', () => {
    const statements = new ShapedStatements(256, true);
    statements.statement('sites(?)', byRegion('Lazio'));
    expect(() =>
      statements.statement(
        'sites(?)',
        (bind) => sql`select id from school_sites where province = ${bind('RM')}`,
      ),
    ).toThrow(/two statements/);
  });

  it('keeps at most `max` shapes; past them a page is built as before', () => {
    const statements = new ShapedStatements(1, false);
    statements.statement('a', byRegion('Lazio'));
    const other = counted(byRegion('Umbria'));
    statements.statement('b', other.build);
    statements.statement('b', other.build);
    expect(other.texts()).toBe(2);
  });

  it('a shape is the filters set, the sort and the number of words: not their values, the page or its size', () => {
    const shape = (raw: Record<string, string>) =>
      listShape('school-sites', SchoolSiteListQuerySchema.parse(raw));
    expect(shape({ q: 'liceo scientifico', region: 'Lazio', page: '3' })).toBe(
      shape({ q: 'via roma', region: 'Umbria', pageSize: '50' }),
    );
    expect(shape({ q: 'liceo' })).not.toBe(shape({ q: 'liceo scientifico' }));
    expect(shape({ q: 'liceo', sort: 'name' })).not.toBe(shape({ q: 'liceo', sort: '-name' }));
    expect(shape({ stateSchool: 'false' })).not.toBe(shape({}));
    // Every page of the registry's lists binds all its values, whatever the shape.
    const statements = new ShapedStatements(256, false);
    // Builds queries only: the pool never connects.
    const db = drizzle(new pg.Pool(), { schema }) as unknown as Parameters<typeof schoolSitePageQuery>[0];
    for (const raw of [
      {},
      { q: 'citta' },
      { q: "dell' arte", sort: '-instituteName', stateSchool: 'true', participating: 'false' },
      { region: 'Lazio', level: 'primaria', adhesionState: 'nessuna', instituteId: '7' },
    ]) {
      const query = SchoolSiteListQuerySchema.parse(raw);
      expect(
        () =>
          statements.statement(listShape('school-sites', query), (bind) =>
            schoolSitePageQuery(db, query, 25, 50, bind),
          ),
        JSON.stringify(raw),
      ).not.toThrow();
    }
  });
});
