import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InstituteDetailSchema,
  InstituteListResponseSchema,
  SchoolSiteDetailSchema,
  SchoolSiteListResponseSchema,
} from '@portale/shared/registry';
import { SEARCH_TRANSLATE_FROM, SEARCH_TRANSLATE_TO } from '@portale/shared/lists';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await t.database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]!.n);
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

const READERS = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

describe('who may read the registry', () => {
  const endpoints = [
    '/api/institutes',
    '/api/school-sites',
    '/api/institutes/export?format=csv&region=Lombardia',
    '/api/school-sites/export?format=csv&province=PV',
  ];
  for (const url of endpoints) {
    it(`${url}: staff 200, guest 401, every other account 403`, async () => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).get(url);
        // Accounts that must change the password or verify contacts get the 403 of the portal conditions.
        expect(res.statusCode, account.email).toBe(READERS.has(account.email) ? 200 : 403);
      }
    });
  }

  it('a principal reads their own institute and not another one, and may not edit it', async () => {
    const principal = as('dirigente@demo.test');
    const me = (await principal.get('/api/auth/me')).json<{ user: { id: number } }>().user;
    const own = await scalar(sql`select id as n from institutes where principal_user_id = ${me.id}`);
    const other = await scalar(
      sql`select id as n from institutes where principal_user_id is distinct from ${me.id} and first_contact_user_id is distinct from ${me.id} order by id limit 1`,
    );
    expect((await principal.get(`/api/institutes/${own}`)).statusCode).toBe(200);
    expect((await principal.get(`/api/institutes/${other}`)).statusCode).toBe(403);
    expect(
      (await principal.send('PATCH', `/api/institutes/${own}`, { payload: { phone: '06 1234567' } }))
        .statusCode,
    ).toBe(403);
    expect((await as('insegnante@demo.test').get(`/api/institutes/${own}`)).statusCode).toBe(403);
  });
});

describe('GET /api/institutes', () => {
  it('answers the whole registry total and the first page sorted by name', async () => {
    const res = await staff().get('/api/institutes');
    expect(res.statusCode).toBe(200);
    const body = InstituteListResponseSchema.parse(res.json());
    expect(body.total).toBe(await scalar(sql`select count(*)::int as n from institutes`));
    expect(body.items).toHaveLength(25);
    const names = body.items.map((i) => i.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('filters by region, province, state school, level and adhesion state like SQL does', async () => {
    const cases: [string, ReturnType<typeof sql>][] = [
      ['province=PV', sql`select count(*)::int as n from institutes where province = 'PV'`],
      [
        'region=Lazio&stateSchool=false',
        sql`select count(*)::int as n from institutes where region = 'Lazio' and not is_state_school`,
      ],
      [
        'level=infanzia&province=RM',
        sql`select count(*)::int as n from institutes i where province = 'RM' and exists (select 1 from school_sites s where s.institute_id = i.id and s.school_level = 'infanzia')`,
      ],
      [
        'adhesionState=adesione_firmata',
        sql`select count(*)::int as n from institutes where adhesion_state = 'adesione_firmata'`,
      ],
    ];
    for (const [query, expected] of cases) {
      const body = InstituteListResponseSchema.parse((await staff().get(`/api/institutes?${query}`)).json());
      expect(body.total, query).toBe(await scalar(expected));
      expect(body.total, query).toBeGreaterThan(0);
    }
  });

  it('sorts descending by any whitelisted column and pages without overlap', async () => {
    const first = InstituteListResponseSchema.parse(
      (await staff().get('/api/institutes?sort=-municipalityName&pageSize=50')).json(),
    );
    const second = InstituteListResponseSchema.parse(
      (await staff().get('/api/institutes?sort=-municipalityName&pageSize=50&page=2')).json(),
    );
    const towns = first.items.map((i) => i.municipalityName);
    expect(towns).toEqual([...towns].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const ids = new Set(first.items.map((i) => i.id));
    expect(second.items.some((i) => ids.has(i.id))).toBe(false);
    const bySites = InstituteListResponseSchema.parse(
      (await staff().get('/api/institutes?sort=-schoolSiteCount')).json(),
    );
    expect(bySites.items[0]!.schoolSiteCount).toBeGreaterThanOrEqual(bySites.items[1]!.schoolSiteCount);
  });

  it('finds by code (exact code first), by name words and without accents', async () => {
    const code = (await t.database.db.execute(
      sql`select ministry_code as c from institutes where province = 'PV' order by ministry_code limit 1`,
    )) as unknown as { rows: { c: string }[] };
    const byCode = InstituteListResponseSchema.parse(
      (await staff().get(`/api/institutes?q=${code.rows[0]!.c.toLowerCase()}`)).json(),
    );
    expect(byCode.items[0]!.ministryCode).toBe(code.rows[0]!.c);
    const accented = (await t.database.db.execute(
      sql`select municipality_name as m from institutes where municipality_name ~ '[àèéìòù]' limit 1`,
    )) as unknown as { rows: { m: string }[] };
    const town = accented.rows[0]!.m;
    const plain = town.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    const found = InstituteListResponseSchema.parse(
      (await staff().get(`/api/institutes?q=${encodeURIComponent(plain)}`)).json(),
    );
    expect(found.items.map((i) => i.municipalityName)).toContain(town);
    // Every word must match, in any order, in name, municipality or code.
    const words = InstituteListResponseSchema.parse(
      (await staff().get('/api/institutes?q=pavia%20ic')).json(),
    );
    expect(words.total).toBeGreaterThan(0);
    for (const item of words.items) {
      const text = `${item.name} ${item.municipalityName} ${item.ministryCode}`.toLowerCase();
      expect(text).toContain('pavia');
      expect(text).toContain('ic');
    }
  });

  it('answers bad input with a 422 in Italian or an empty page, never a 500', async () => {
    const refused = [
      'region=Atlantide',
      'sort=password',
      'pageSize=1000',
      'page=0',
      'page=abc',
      `q=${'x'.repeat(10_000)}`,
      'stateSchool=forse',
      'level=universita',
    ];
    for (const query of refused) {
      const res = await staff().get(`/api/institutes?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ message: string }>().message, query).toMatch(/non sono validi/);
    }
    const tricky = ["q=' or 1=1 --", 'q=%25_%5C', 'q=%F0%9F%8F%AB', 'page=99999'];
    for (const query of tricky) {
      const res = await staff().get(`/api/institutes?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.json<{ items: unknown[] }>().items, query).toEqual([]);
    }
  });
});

describe('GET/PATCH /api/institutes/:instituteId', () => {
  it('is 404 in Italian for an unknown or malformed id', async () => {
    for (const id of ['999999999', 'abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await staff().get(`/api/institutes/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json<{ message: string }>().message, id).toMatch(/non (trovato|esiste)/);
    }
  });

  it('shows the data, plessi, people and history, and audits a correction with before and after', async () => {
    const id = await scalar(
      sql`select id as n from institutes where principal_user_id is not null order by id limit 1`,
    );
    const detail = InstituteDetailSchema.parse((await staff().get(`/api/institutes/${id}`)).json());
    expect(detail.principal).not.toBeNull();
    expect(detail.schoolSites.length).toBe(detail.schoolSiteCount);

    const bad = await staff().send('PATCH', `/api/institutes/${id}`, {
      payload: { email: 'non-una-mail', postalCode: '123' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json<{ errors: Record<string, string[]> }>().errors)).toEqual(
      expect.arrayContaining(['email', 'postalCode']),
    );
    // The ministry code is not editable: a field the contract does not declare (400 unknown_field).
    expect(
      (await staff().send('PATCH', `/api/institutes/${id}`, { payload: { ministryCode: 'XX' } })).json(),
    ).toMatchObject({ statusCode: 400, code: 'unknown_field' });

    const res = await staff().send('PATCH', `/api/institutes/${id}`, {
      payload: { email: ' Segreteria@Scuola.EDU.it ', phone: '06 1234567' },
    });
    expect(res.statusCode).toBe(200);
    const updated = InstituteDetailSchema.parse(res.json());
    expect(updated.email).toBe('segreteria@scuola.edu.it');
    expect(updated.phone).toBe('06 1234567');

    const audit = (await staff().get(`/api/audit?entity=institute&entityId=${id}`)).json<{
      items: {
        action: string;
        before: Record<string, unknown>;
        after: Record<string, unknown>;
        actor: { email: string };
      }[];
    }>();
    expect(audit.items[0]).toMatchObject({
      action: 'institute.updated',
      after: { email: 'segreteria@scuola.edu.it', phone: '06 1234567' },
      actor: { email: 'sylla@demo.test' },
    });
    expect(audit.items[0]!.before).toHaveProperty('phone', null);

    // The same values again change nothing and add no audit row.
    await staff().send('PATCH', `/api/institutes/${id}`, { payload: { phone: '06 1234567' } });
    const again = (await staff().get(`/api/audit?entity=institute&entityId=${id}`)).json<{ total: number }>();
    expect(again.total).toBe(audit.items.length);
  });
});

describe('exports', () => {
  it('CSV: BOM, semicolons, one row per matching institute', async () => {
    const res = await staff().get('/api/institutes/export?format=csv&province=PV');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(
      /attachment; filename="istituti-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const total = await scalar(sql`select count(*)::int as n from institutes where province = 'PV'`);
    expect(res.headers['x-total-count']).toBe(String(total));
    expect(res.body.startsWith('\uFEFFCodice meccanografico;Denominazione;')).toBe(true);
    const lines = res.body.trim().split('\r\n');
    expect(lines.length - 1).toBe(total);
  });

  it('XLSX: a real workbook with the header and every school site of the filter', async () => {
    const res = await staff().get('/api/school-sites/export?format=xlsx&province=PV&level=primaria');
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Plessi')!;
    const total = await scalar(
      sql`select count(*)::int as n from school_sites where province = 'PV' and school_level = 'primaria'`,
    );
    expect(sheet.rowCount - 1).toBe(total);
    expect(sheet.getRow(1).getCell(1).value).toBe('Codice meccanografico');
  });

  it('refuses an unknown format', async () => {
    expect((await staff().get('/api/institutes/export?format=pdf')).statusCode).toBe(422);
  });
});

describe('GET/PATCH /api/school-sites', () => {
  it('ranks a search: whole words before words inside others, then the shortest text', async () => {
    const items = [];
    for (let page = 1; page <= 5; page++) {
      const ranked = SchoolSiteListResponseSchema.parse(
        (await staff().get(`/api/school-sites?q=san&pageSize=100&page=${page}`)).json(),
      );
      items.push(...ranked.items);
      if (items.length >= ranked.total) break;
    }
    const keys = items.map((i) => {
      // The row's search_text, as the database computes it.
      const text = [...`${i.name} ${i.municipalityName} ${i.ministryCode}`]
        .map((c) => SEARCH_TRANSLATE_TO[SEARCH_TRANSLATE_FROM.indexOf(c)] ?? c)
        .join('')
        .toLowerCase();
      return { whole: ` ${text} `.includes(' san '), length: text.length };
    });
    expect(keys.some((k) => k.whole) && keys.some((k) => !k.whole)).toBe(true);
    for (const [n, key] of keys.entries()) {
      const before = keys[n - 1];
      if (!before) continue;
      expect(before.whole || !key.whole).toBe(true);
      if (before.whole === key.whole) expect(before.length).toBeLessThanOrEqual(key.length);
    }
    // A search of punctuation alone has no words: the list keeps its own order.
    const plain = SchoolSiteListResponseSchema.parse((await staff().get('/api/school-sites')).json());
    const wordless = SchoolSiteListResponseSchema.parse(
      (await staff().get(`/api/school-sites?q=${encodeURIComponent("'")}`)).json(),
    );
    expect(wordless.items.map((i) => i.id)).toEqual(plain.items.map((i) => i.id));
  });

  it('lists, filters by participation and institute, and edits with audit', async () => {
    const list = SchoolSiteListResponseSchema.parse(
      (await staff().get('/api/school-sites?province=RM&level=primaria&sort=-name')).json(),
    );
    expect(list.total).toBe(
      await scalar(
        sql`select count(*)::int as n from school_sites where province = 'RM' and school_level = 'primaria'`,
      ),
    );
    const site = list.items[0]!;
    const ofInstitute = SchoolSiteListResponseSchema.parse(
      (await staff().get(`/api/school-sites?instituteId=${site.instituteId}`)).json(),
    );
    expect(ofInstitute.items.every((s) => s.instituteId === site.instituteId)).toBe(true);

    // Totals are cached (CountCache): an edit recounts those of the filters that read what it changed.
    const totalOf = async (query: string) =>
      SchoolSiteListResponseSchema.parse((await staff().get(`/api/school-sites?${query}`)).json()).total;
    const participatingBefore = await totalOf(`participating=true&instituteId=${site.instituteId}`);
    const renamedBefore = await totalOf('q=zefiro+cachet');
    expect(renamedBefore).toBe(0);
    const res = await staff().send('PATCH', `/api/school-sites/${site.id}`, {
      payload: { participating: true, address: 'Via Roma 1' },
    });
    expect(res.statusCode).toBe(200);
    expect(SchoolSiteDetailSchema.parse(res.json())).toMatchObject({
      participating: true,
      address: 'Via Roma 1',
    });
    const participating = SchoolSiteListResponseSchema.parse(
      (await staff().get(`/api/school-sites?participating=true&instituteId=${site.instituteId}`)).json(),
    );
    expect(participating.items.map((s) => s.id)).toContain(site.id);
    expect(participating.total).toBe(participatingBefore + (site.participating ? 0 : 1));
    const audit = (await staff().get(`/api/audit?entity=school-site&entityId=${site.id}`)).json<{
      items: { after: unknown }[];
    }>();
    expect(audit.items[0]!.after).toEqual({ participating: true, address: 'Via Roma 1' });
    expect(
      (
        await staff().send('PATCH', `/api/school-sites/${site.id}`, {
          payload: { name: 'Plesso Zefiro Cachet' },
        })
      ).statusCode,
    ).toBe(200);
    expect(await totalOf('q=zefiro+cachet')).toBe(1);
    expect(
      (await staff().send('PATCH', `/api/school-sites/${site.id}`, { payload: { name: 'x' } })).statusCode,
    ).toBe(422);
    expect(
      (
        await as('utenti@demo.test').send('PATCH', `/api/school-sites/${site.id}`, {
          payload: { participating: false },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('GET /api/audit', () => {
  it('is for staff and user.index only, and validates its query', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/audit?entity=institute&entityId=1' })).statusCode,
    ).toBe(401);
    expect((await as('insegnante@demo.test').get('/api/audit?entity=institute&entityId=1')).statusCode).toBe(
      403,
    );
    expect((await as('utenti@demo.test').get('/api/audit?entity=user&entityId=1')).statusCode).toBe(200);
    expect((await staff().get('/api/audit?entity=password&entityId=1')).statusCode).toBe(422);
  });
});

describe('the search rows (decision 027)', () => {
  /** Registry rows whose search row is missing, left over or different from the row's own search_text. */
  const drift = () =>
    scalar(sql`select (
      select count(*) from institutes r full join institute_search s on s.id = r.id
      where r.id is null or s.id is null or s.text <> ' ' || r.search_text || ' ' or s.length <> length(r.search_text) or s.ministry_code <> r.ministry_code or s.name <> r.name
    ) + (
      select count(*) from school_sites r full join school_site_search s on s.id = r.id
      where r.id is null or s.id is null or s.text <> ' ' || r.search_text || ' ' or s.length <> length(r.search_text) or s.ministry_code <> r.ministry_code or s.name <> r.name
    ) as n`);
  const instituteIds = async (q: string) =>
    InstituteListResponseSchema.parse(
      (await staff().get(`/api/institutes?q=${encodeURIComponent(q)}`)).json(),
    ).items.map((i) => i.id);
  const siteIds = async (q: string) =>
    SchoolSiteListResponseSchema.parse(
      (await staff().get(`/api/school-sites?q=${encodeURIComponent(q)}`)).json(),
    ).items.map((i) => i.id);

  it('follow every insert, rename and delete of the registry in the statement that makes it', async () => {
    expect(await drift()).toBe(0);
    // Inserted as the registry seed inserts (SQL, many rows a statement), renamed through the API and by SQL, then deleted.
    const [institute] = (
      (await t.database.db.execute(sql`
      insert into institutes (ministry_code, name, type, is_state_school, region, province, municipality_code, municipality_name)
      values ('ZZIC00001A', 'Istituto Zaffiro Quarzo', 'ISTITUTO COMPRENSIVO', true, 'Lazio', 'RM', 'H501', 'Città Eterna') returning id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    const instituteId = Number(institute!.id);
    const [site] = (
      (await t.database.db.execute(sql`
      insert into school_sites (ministry_code, institute_id, name, school_level, type_label, municipality_code, municipality_name, province, region)
      values ('ZZEE00001B', ${instituteId}, 'Plesso Ametista', 'primaria', 'SCUOLA PRIMARIA', 'H501', 'Città Eterna', 'RM', 'Lazio'),
             ('ZZEE00002C', ${instituteId}, 'Plesso Ametista Nuovo', 'primaria', 'SCUOLA PRIMARIA', 'H501', 'Città Eterna', 'RM', 'Lazio') returning id`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    const siteId = Number(site!.id);
    expect(await drift()).toBe(0);
    expect(await instituteIds('zaffiro quarzo eterna')).toEqual([instituteId]);
    expect((await siteIds('zzee00001b'))[0]).toBe(siteId);

    expect(
      (await staff().send('PATCH', `/api/school-sites/${siteId}`, { payload: { name: 'Plesso Granato' } }))
        .statusCode,
    ).toBe(200);
    expect(await siteIds('granato')).toEqual([siteId]);
    expect(await siteIds('ametista')).not.toContain(siteId);
    await t.database.db.execute(
      sql`update institutes set name = 'Istituto Topazio', municipality_name = 'Roma' where id = ${instituteId}`,
    );
    expect(await drift()).toBe(0);
    expect(await instituteIds('topazio roma')).toEqual([instituteId]);

    await t.database.db.execute(sql`delete from institutes where id = ${instituteId}`);
    expect(await drift()).toBe(0);
    expect(await instituteIds('zzic00001a')).toEqual([]);
    expect(await siteIds('zzee00002c')).toEqual([]);
  });

  it('a search with any filter or sort finds what the registry rows hold, in the same order', async () => {
    const siteCases: [string, ReturnType<typeof sql>][] = [
      [
        'q=scuola&province=RM&level=primaria',
        sql`select count(*)::int as n from school_sites where search_text like '%scuola%' and province = 'RM' and school_level = 'primaria'`,
      ],
      [
        'q=via&stateSchool=false',
        sql`select count(*)::int as n from school_sites s join institutes i on i.id = s.institute_id where s.search_text like '%via%' and not i.is_state_school`,
      ],
      [
        'q=roma&adhesionState=nessuna&participating=false',
        sql`select count(*)::int as n from school_sites s join institutes i on i.id = s.institute_id where s.search_text like '%roma%' and i.adhesion_state = 'nessuna' and not s.participating`,
      ],
    ];
    for (const [query, expected] of siteCases) {
      const body = SchoolSiteListResponseSchema.parse(
        (await staff().get(`/api/school-sites?${query}`)).json(),
      );
      expect(body.total, query).toBe(await scalar(expected));
      expect(body.total, query).toBeGreaterThan(0);
    }
    const instituteCases: [string, ReturnType<typeof sql>][] = [
      [
        'q=ic&level=infanzia&region=Lazio',
        sql`select count(*)::int as n from institutes i where search_text like '%ic%' and region = 'Lazio' and exists (select 1 from school_sites s where s.institute_id = i.id and s.school_level = 'infanzia')`,
      ],
      [
        'q=liceo&stateSchool=true',
        sql`select count(*)::int as n from institutes where search_text like '%liceo%' and is_state_school`,
      ],
    ];
    for (const [query, expected] of instituteCases) {
      const body = InstituteListResponseSchema.parse((await staff().get(`/api/institutes?${query}`)).json());
      expect(body.total, query).toBe(await scalar(expected));
      expect(body.total, query).toBeGreaterThan(0);
    }
    // A sort chosen by the user replaces the ranking, across pages.
    const sorted = [];
    for (const page of [1, 2])
      sorted.push(
        ...SchoolSiteListResponseSchema.parse(
          (await staff().get(`/api/school-sites?q=scuola&sort=-instituteName&page=${page}`)).json(),
        ).items,
      );
    const names = sorted.map((s) => s.instituteName);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(new Set(sorted.map((s) => s.id)).size).toBe(sorted.length);
  });
});
