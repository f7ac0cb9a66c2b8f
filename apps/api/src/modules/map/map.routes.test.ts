import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeMapSchoolSites,
  MapBoundariesSchema,
  MapSchoolSitesSchema,
  type MapFilters,
} from '@portale/shared/map';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, queriesOf, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { mapSchoolSites, type MapPlaces } from './map.repository.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('cromos@demo.test');
const STAFF = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

async function sites(query = '') {
  const res = await staff().get(`/api/map/school-sites${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return decodeMapSchoolSites(MapSchoolSitesSchema.parse(res.json()));
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

describe('who may read the map', () => {
  for (const url of [
    '/api/map/school-sites',
    '/api/map/school-sites?province=PV',
    '/api/map/boundaries?layer=regioni',
  ]) {
    it(`${url}: staff 200, guest 401, every other account 403`, async () => {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        const res = await as(account.email).get(url);
        expect(res.statusCode, account.email).toBe(STAFF.has(account.email) ? 200 : 403);
      }
    });
  }
});

describe('GET /api/map/school-sites', () => {
  it('answers every plesso of the registry, each with the data the database holds', async () => {
    const decoded = await sites();
    const expected = await sqlRows<{
      id: number;
      lon: number | null;
      lat: number | null;
      state: string;
      level: string;
      province: string;
      participating: boolean;
      detector: boolean;
    }>(
      t,
      sql`
      select s.id::int as id, s.longitude as lon, s.latitude as lat, i.adhesion_state as state, s.school_level as level, s.province,
        s.participating, s.detector_user_id is not null as detector
      from school_sites s join institutes i on i.id = s.institute_id order by s.id`,
    );
    expect(expected.length).toBeGreaterThan(1000);
    expect(decoded.length).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i]!;
      const d = decoded[i]!;
      expect({
        id: d.id,
        state: d.state,
        level: d.level,
        province: d.province,
        participating: d.participating,
        detector: d.detector,
      }).toEqual({
        id: Number(e.id),
        state: e.state,
        level: e.level,
        province: e.province,
        participating: e.participating,
        detector: e.detector,
      });
      if (e.lon === null) expect(d.lon).toBeNull();
      else {
        expect(Math.abs(d.lon! - e.lon)).toBeLessThanOrEqual(0.00005 + 1e-9);
        expect(Math.abs(d.lat! - e.lat!)).toBeLessThanOrEqual(0.00005 + 1e-9);
      }
    }
  });

  it('counts per province and per filter equal SQL', async () => {
    const decoded = await sites();
    const byProvince = await sqlRows<{ province: string; n: number }>(
      t,
      sql`select province, count(*)::int as n from school_sites group by province`,
    );
    for (const { province, n } of byProvince)
      expect(decoded.filter((s) => s.province === province).length, province).toBe(Number(n));

    const pv = await sites('?province=PV&level=primaria');
    const [pvSql] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites where province = 'PV' and school_level = 'primaria'`,
    );
    expect(pv.length).toBe(Number(pvSql!.n));
    expect(pv.every((s) => s.province === 'PV' && s.level === 'primaria')).toBe(true);

    const lazio = await sites('?region=Lazio&participating=false&detector=unassigned');
    const [lazioSql] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites where region = 'Lazio' and not participating and detector_user_id is null`,
    );
    expect(lazio.length).toBe(Number(lazioSql!.n));

    const [iscritto] = await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from school_sites s join institutes i on i.id = s.institute_id where i.adhesion_state = 'iscritto'`,
    );
    expect((await sites('?adhesionState=iscritto')).length).toBe(Number(iscritto!.n));
  });

  it('an institute can hold only a state of the state machine (the map indexes by it)', async () => {
    const [institute] = await sqlRows<{ id: number; adhesion_state: string }>(
      t,
      sql`select id::int as id, adhesion_state from institutes order by id limit 1`,
    );
    await expect(
      t.database.db.execute(
        sql`update institutes set adhesion_state = 'sospeso' where id = ${institute!.id}`,
      ),
    ).rejects.toThrow();
    const [after] = await sqlRows<{ adhesion_state: string }>(
      t,
      sql`select adhesion_state from institutes where id = ${institute!.id}`,
    );
    expect(after!.adhesion_state).toBe(institute!.adhesion_state);
  });

  it('an empty result is an empty answer, not an error', async () => {
    const res = await staff().get('/api/map/school-sites?region=Sicilia');
    expect(res.statusCode).toBe(200);
    const body = MapSchoolSitesSchema.parse(res.json());
    expect(body.count).toBe(0);
    expect(body.idDelta).toBe('');
    expect(decodeMapSchoolSites(body)).toEqual([]);
  });

  it('unknown filter values are a 422 in Italian; unknown parameters a 400', async () => {
    for (const query of [
      'region=Atlantide',
      'province=ZZ',
      'level=universita',
      'adhesionState=felice',
      'participating=forse',
      'detector=maybe',
    ]) {
      const res = await staff().get(`/api/map/school-sites?${query}`);
      expect(res.statusCode, query).toBe(422);
      const body = res.json<{ message: string; errors: Record<string, string[]> }>();
      expect(body.message).toMatch(/non sono validi/);
      const field = query.split('=')[0]!;
      expect(body.errors[field]?.[0], query).toMatch(/Valore non valido per «|Usa «true» o «false»/);
    }
    expect((await staff().get('/api/map/school-sites?colour=red')).statusCode).toBe(400);
  });

  it('is compact, gzip when accepted, and cacheable with an ETag that changes with the data', async () => {
    const plain = await staff().get('/api/map/school-sites');
    const zipped = await staff().get('/api/map/school-sites', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    const etag = String(plain.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(zipped.headers.etag).toBe(etag);
    expect(plain.headers['cache-control']).toBe('private, no-cache');

    const again = await staff().get('/api/map/school-sites', { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another filter is another answer.
    const other = await staff().get('/api/map/school-sites?province=RM', {
      headers: { 'if-none-match': etag },
    });
    expect(other.statusCode).toBe(200);

    // A change of an institute's state changes the ETag.
    await t.database.db.execute(
      sql`update institutes set adhesion_state = 'attivo' where id = (select institute_id from school_sites order by id limit 1)`,
    );
    const changed = await staff().get('/api/map/school-sites', { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(decodeMapSchoolSites(MapSchoolSitesSchema.parse(changed.json()))[0]!.state).toBe('attivo');
  });

  it('answers from memory while the data is unchanged, and anew after any write it depends on (decision 020)', async () => {
    const first = async (query = '') => {
      const res = await staff().get(`/api/map/school-sites${query}`);
      expect(res.statusCode).toBe(200);
      return {
        etag: String(res.headers.etag),
        sites: decodeMapSchoolSites(MapSchoolSitesSchema.parse(res.json())),
      };
    };
    const version = async () =>
      (
        await sqlRows<{ v: string }>(
          t,
          sql`select coalesce(sum(weight), 0)::text as v from data_changes where topic = 'map'`,
        )
      )[0]!.v;
    const [site] = await sqlRows<{ id: number; institute_id: number }>(
      t,
      sql`select id::int, institute_id::int from school_sites where province = 'PV' order by id limit 1`,
    );
    const id = Number(site!.id);
    const before = await first();
    const at = await version();

    // A write to what the map does not show (the name) keeps the version and the answer.
    await t.database.db.execute(sql`update school_sites set name = name || ' ' where id = ${id}`);
    expect(await version()).toBe(at);
    expect((await first()).etag).toBe(before.etag);

    // Every column the map shows: each write is seen by the very next call.
    const edits = [
      [
        sql`update school_sites set participating = not participating where id = ${id}`,
        (s: (typeof before.sites)[number]) => s.participating,
      ],
      [
        sql`update school_sites set detector_user_id = case when detector_user_id is null then (select id from users order by id limit 1) end where id = ${id}`,
        (s: (typeof before.sites)[number]) => s.detector,
      ],
      [
        sql`update school_sites set latitude = latitude + 0.01 where id = ${id}`,
        (s: (typeof before.sites)[number]) => s.lat,
      ],
      [
        sql`update school_sites set school_level = case when school_level = 'infanzia' then 'primaria' else 'infanzia' end where id = ${id}`,
        (s: (typeof before.sites)[number]) => s.level,
      ],
      [
        sql`update institutes set adhesion_state = case when adhesion_state = 'adesione_firmata' then 'attivo' else 'adesione_firmata' end where id = ${site!.institute_id}`,
        (s: (typeof before.sites)[number]) => s.state,
      ],
    ] as const;
    let etag = before.etag;
    for (const [statement, read] of edits) {
      const old = read((await first()).sites.find((s) => s.id === id)!);
      await t.database.db.execute(statement);
      const now = await first();
      expect(now.etag).not.toBe(etag);
      expect(read(now.sites.find((s) => s.id === id)!)).not.toEqual(old);
      etag = now.etag;
    }
    // Through a filter too, and for a deleted plesso.
    const inPv = (await first('?province=PV')).sites.length;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`delete from school_sites where id = ${id}`);
    });
    expect((await first('?province=PV')).sites.length).toBe(inPv - 1);
    expect((await first()).sites.some((s) => s.id === id)).toBe(false);

    // Many writes fold into one row of the same weight: the version keeps growing, the answers stay right.
    const [other] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int from school_sites where province = 'PV' order by id limit 1`,
    );
    for (let i = 0; i < 70; i++) {
      await t.database.db.execute(
        sql`update school_sites set participating = ${i % 2 === 0} where id = ${other!.id}`,
      );
      if (i % 10 === 9)
        expect((await first()).sites.find((s) => s.id === Number(other!.id))!.participating).toBe(
          i % 2 === 0,
        );
    }
    const [{ n }] = (await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from data_changes where topic = 'map'`,
    )) as [{ n: number }];
    expect(n).toBeLessThanOrEqual(65);
    expect(BigInt(await version())).toBeGreaterThan(BigInt(at) + 70n);
  });
});

describe('the kept plessi (topic map-places)', () => {
  const placesVersion = async () =>
    (
      await sqlRows<{ v: string }>(
        t,
        sql`select coalesce(sum(weight), 0)::text as v from data_changes where topic = 'map-places'`,
      )
    )[0]!.v;
  const FILTERS: MapFilters[] = [
    {},
    { province: 'PV' },
    { participating: true },
    { region: 'Lombardia', detector: 'assigned' },
    { adhesionState: 'attivo' },
    { level: 'primaria', participating: false, adhesionState: 'iscritto' },
  ];

  it('a write of participation, detector or state keeps them; a write that moves a plesso does not', async () => {
    const [site] = await sqlRows<{ id: number; institute_id: number }>(
      t,
      sql`select id::int, institute_id::int from school_sites order by id desc limit 1`,
    );
    const at = await placesVersion();
    await t.database.db.execute(
      sql`update school_sites set participating = not participating, detector_user_id = null where id = ${site!.id}`,
    );
    await t.database.db.execute(
      sql`update institutes set adhesion_state = 'attivo' where id = ${site!.institute_id}`,
    );
    expect(await placesVersion()).toBe(at);
    await t.database.db.execute(
      sql`update school_sites set longitude = longitude + 0.01 where id = ${site!.id}`,
    );
    expect(await placesVersion()).not.toBe(at);
  });

  it('the route runs the narrow query after a programme write, and only the whole one after a move', async () => {
    const statements = async () => {
      const queries = await queriesOf(t.database, sites);
      return {
        whole: queries.filter((q) => q.includes(' as sites')).length,
        narrow: queries.filter((q) => q.includes('order by s.id')).length,
      };
    };
    const [site] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int from school_sites where longitude is not null order by id limit 1`,
    );
    await sites();
    await t.database.db.execute(
      sql`update school_sites set participating = not participating where id = ${site!.id}`,
    );
    expect(await statements()).toEqual({ whole: 0, narrow: 1 });
    await t.database.db.execute(
      sql`update school_sites set longitude = longitude + 0.001 where id = ${site!.id}`,
    );
    expect(await statements()).toEqual({ whole: 1, narrow: 0 });
    await t.database.db.execute(
      sql`update school_sites set participating = not participating, longitude = longitude - 0.001 where id = ${site!.id}`,
    );
    expect(await statements()).toEqual({ whole: 1, narrow: 0 });
    expect(await statements()).toEqual({ whole: 0, narrow: 0 });
  });

  it('answers after programme writes equal answers built from nothing, for every kind of filter', async () => {
    const kept = new Map<string, MapPlaces>();
    const fresh = (filters: MapFilters) => mapSchoolSites(t.database.db, filters);
    for (const filters of FILTERS)
      expect(await mapSchoolSites(t.database.db, filters, kept)).toEqual(await fresh(filters));
    const [sample] = await sqlRows<{ ids: number[]; institutes: number[] }>(
      t,
      sql`select array_agg(id::int order by id) as ids, array_agg(distinct institute_id::int) as institutes from (select id, institute_id from school_sites where province in ('PV', 'MI', 'RM') order by id limit 40) s`,
    );
    const [detector] = await sqlRows<{ id: number }>(t, sql`select id::int from users order by id limit 1`);
    const ids = `{${sample!.ids.join(',')}}`;
    const states = ['attivo', 'iscritto', 'adesione_firmata', 'ritirato'];
    for (let round = 0; round < 4; round++) {
      // Programme writes only: the kept plessi serve (the narrow query), and must stay exact.
      await t.database.db.execute(
        sql`update school_sites set participating = (id % 3 = ${round % 3}) where id = any(${ids}::bigint[])`,
      );
      await t.database.db.execute(
        sql`update school_sites set detector_user_id = case when id % 2 = ${round % 2} then ${detector!.id}::bigint end where id = any(${ids}::bigint[])`,
      );
      await t.database.db.execute(
        sql`update institutes set adhesion_state = ${states[round]!} where id = any(${`{${sample!.institutes.join(',')}}`}::bigint[])`,
      );
      for (const filters of FILTERS)
        expect(await mapSchoolSites(t.database.db, filters, kept), JSON.stringify(filters)).toEqual(
          await fresh(filters),
        );
    }
    // A plesso moves and another goes: the kept plessi are read again.
    await t.database.db.execute(
      sql`update school_sites set latitude = latitude + 0.02 where id = ${sample!.ids[0]!}`,
    );
    await t.database.db.execute(sql`delete from school_sites where id = ${sample!.ids[1]!}`);
    for (const filters of FILTERS)
      expect(await mapSchoolSites(t.database.db, filters, kept), JSON.stringify(filters)).toEqual(
        await fresh(filters),
      );
    expect(
      decodeMapSchoolSites(await mapSchoolSites(t.database.db, {}, kept)).some(
        (s) => s.id === sample!.ids[1]!,
      ),
    ).toBe(false);
  });

  it('many moves fold into one row of the same weight, and the answers stay right', async () => {
    const kept = new Map<string, MapPlaces>();
    const [site] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int from school_sites where latitude is not null order by id limit 1`,
    );
    for (let i = 0; i < 70; i++) {
      await t.database.db.execute(
        sql`update school_sites set latitude = latitude + 0.0001 where id = ${site!.id}`,
      );
      await t.database.db.execute(
        sql`update school_sites set participating = not participating where id = ${site!.id}`,
      );
      const answer = await mapSchoolSites(t.database.db, {}, kept);
      if (i % 10 === 9) expect(answer).toEqual(await mapSchoolSites(t.database.db, {}));
    }
    const [{ n }] = (await sqlRows<{ n: number }>(
      t,
      sql`select count(*)::int as n from data_changes where topic = 'map-places'`,
    )) as [{ n: number }];
    expect(n).toBeLessThanOrEqual(65);
  });
});

describe('GET /api/map/boundaries', () => {
  it('serves the regions and the provinces of Italy as GeoJSON, cacheable', async () => {
    const regions = await staff().get('/api/map/boundaries?layer=regioni', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(regions.statusCode).toBe(200);
    const body = MapBoundariesSchema.parse(JSON.parse(gunzipSync(regions.rawPayload).toString()));
    expect(body.features).toHaveLength(20);
    const provinces = MapBoundariesSchema.parse(
      (await staff().get('/api/map/boundaries?layer=province')).json(),
    );
    expect(provinces.features).toHaveLength(107);
    expect(provinces.features.some((f) => f.properties.prov_acr === 'PV')).toBe(true);
    const etag = String(regions.headers.etag);
    expect(
      (await staff().get('/api/map/boundaries?layer=regioni', { headers: { 'if-none-match': etag } }))
        .statusCode,
    ).toBe(304);
  });

  it('refuses an unknown layer with 422', async () => {
    const res = await staff().get('/api/map/boundaries?layer=comuni');
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors.layer?.[0]).toMatch(
      /Livello dei confini non valido/,
    );
    expect((await staff().get('/api/map/boundaries')).statusCode).toBe(422);
  });
});
