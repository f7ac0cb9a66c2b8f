import ExcelJS from 'exceljs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeacherDetailSchema, TeacherListResponseSchema } from '@portale/shared/teachers';
import { institutes, schoolSites, teacherProfiles, users } from '../../db/schema/index.ts';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';

let t: TestApp;
const clients = new Map<string, ApiClient>();
const as = (email: string) => clients.get(email)!;
const staff = () => as('sylla@demo.test');
/** Teacher profile ids by e-mail. */
const profiles = new Map<string, number>();

/** Seed-spec §6: `/portale/insegnanti` is for super-admin, sylla and cromos only. */
const READERS = new Set(['superadmin@demo.test', 'sylla@demo.test', 'cromos@demo.test']);

async function scalar(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await t.database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]!.n);
}

async function insertSite(values: {
  ministryCode: string;
  name: string;
  province: string;
  region: string;
  municipalityName: string;
  instituteId: number;
}) {
  const [site] = await t.database.db
    .insert(schoolSites)
    .values({ ...values, schoolLevel: 'primaria', typeLabel: 'Scuola primaria', municipalityCode: 'H501' })
    .returning({ id: schoolSites.id });
  return site!.id;
}

/** Teachers of two provinces, of each kind and review state; one has not chosen a plesso yet. */
async function seedTeachers() {
  const db = t.database.db;
  const [rome] = await db
    .select({ id: institutes.id })
    .from(institutes)
    .where(eq(institutes.province, 'RM'))
    .limit(1);
  const [pavia] = await db
    .insert(institutes)
    .values({
      ministryCode: 'PVIC80000A',
      name: 'IC Pavia Centro',
      type: 'Istituto Comprensivo',
      isStateSchool: true,
      region: 'Lombardia',
      province: 'PV',
      municipalityCode: 'G388',
      municipalityName: 'Pavia',
    })
    .returning({ id: institutes.id });
  const romeSite = await insertSite({
    ministryCode: 'RMEE80001B',
    name: 'Plesso Garibaldi',
    province: 'RM',
    region: 'Lazio',
    municipalityName: 'Roma',
    instituteId: rome!.id,
  });
  const paviaSite = await insertSite({
    ministryCode: 'PVEE80001C',
    name: 'Plesso Càrdano',
    province: 'PV',
    region: 'Lombardia',
    municipalityName: 'Pavia',
    instituteId: pavia!.id,
  });
  const people = [
    { email: 'insegnante@demo.test', kind: 'insegnante', reviewState: 'approvata', site: romeSite },
    {
      email: 'lucia.verdi@esempio.it',
      first: 'Lucia',
      last: 'Verdi',
      kind: 'insegnante',
      reviewState: 'in_attesa',
      site: romeSite,
    },
    {
      email: 'nicolo.bassi@esempio.it',
      first: 'Nicolò',
      last: 'Bassi',
      kind: 'educatore',
      reviewState: 'da_correggere',
      site: paviaSite,
    },
    {
      email: 'anna.neri@esempio.it',
      first: 'Anna',
      last: 'Neri',
      kind: 'altro',
      reviewState: 'respinta',
      site: paviaSite,
    },
    {
      email: 'piero.gialli@esempio.it',
      first: 'Piero',
      last: 'Gialli',
      kind: 'insegnante',
      reviewState: 'in_attesa',
      site: null,
    },
  ] as const;
  for (const p of people) {
    let [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, p.email));
    if (!user) {
      [user] = await db
        .insert(users)
        .values({
          email: p.email,
          firstName: 'first' in p ? p.first : '',
          lastName: 'last' in p ? p.last : '',
          passwordHash: 'x',
          phone: '+393331112233',
          emailVerifiedAt: new Date(),
        })
        .returning({ id: users.id });
    }
    const [profile] = await db
      .insert(teacherProfiles)
      .values({
        userId: user!.id,
        kind: p.kind,
        reviewState: p.reviewState,
        schoolSiteId: p.site,
        subjects: ['Matematica', 'Scienze'],
      })
      .returning({ id: teacherProfiles.id });
    profiles.set(p.email, profile!.id);
  }
  return { romeSite, paviaSite };
}

let sites: { romeSite: number; paviaSite: number };

beforeAll(async () => {
  t = await buildTestApp();
  sites = await seedTeachers();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    clients.set(account.email, client);
  }
}, 120_000);
afterAll(() => t.close());

describe('who may read teachers', () => {
  it('staff 200, guest 401, every other account (user.index too) 403', async () => {
    const urls = [
      '/api/teachers',
      '/api/teachers?province=PV',
      '/api/teachers/export?format=csv',
      `/api/teachers/${profiles.get('lucia.verdi@esempio.it')}`,
    ];
    for (const url of urls) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      for (const account of DEMO_ACCOUNTS) {
        expect((await as(account.email).get(url)).statusCode, `${account.email} ${url}`).toBe(
          READERS.has(account.email) ? 200 : 403,
        );
      }
    }
  });

  it("a teacher reads neither a colleague's profile nor their own through the staff registry", async () => {
    const teacher = as('insegnante@demo.test');
    expect((await teacher.get(`/api/teachers/${profiles.get('lucia.verdi@esempio.it')}`)).statusCode).toBe(
      403,
    );
    expect((await teacher.get(`/api/teachers/${profiles.get('insegnante@demo.test')}`)).statusCode).toBe(403);
  });

  it('is 404 in Italian for an unknown or malformed id', async () => {
    for (const id of ['999999', 'abc', '0', '-3', '2.5', '99999999999999999999']) {
      const res = await staff().get(`/api/teachers/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json<{ message: string }>().message, id).toMatch(/non (trovato|esiste)/);
    }
  });
});

describe('GET /api/teachers', () => {
  it('lists every profile with its plesso and institute, sorted by name', async () => {
    const body = TeacherListResponseSchema.parse((await staff().get('/api/teachers')).json());
    expect(body.total).toBe(await scalar(sql`select count(*)::int as n from teacher_profiles`));
    expect(body.items.map((i) => i.lastName)).toEqual(['Bassi', 'Gialli', 'Insegnante', 'Neri', 'Verdi']);
    expect(body.items.find((i) => i.lastName === 'Bassi')).toMatchObject({
      kind: 'educatore',
      schoolSiteName: 'Plesso Càrdano',
      province: 'PV',
      region: 'Lombardia',
      instituteName: 'IC Pavia Centro',
    });
    expect(body.items.find((i) => i.lastName === 'Gialli')).toMatchObject({
      schoolSiteId: null,
      instituteName: null,
      province: null,
    });
  });

  it('filters by kind, review state, region, province and plesso like SQL does', async () => {
    const cases: [string, ReturnType<typeof sql>][] = [
      ['kind=insegnante', sql`select count(*)::int as n from teacher_profiles where kind = 'insegnante'`],
      [
        'reviewState=in_attesa',
        sql`select count(*)::int as n from teacher_profiles where review_state = 'in_attesa'`,
      ],
      [
        'region=Lombardia',
        sql`select count(*)::int as n from teacher_profiles p join school_sites s on s.id = p.school_site_id where s.region = 'Lombardia'`,
      ],
      [
        'province=RM&kind=insegnante',
        sql`select count(*)::int as n from teacher_profiles p join school_sites s on s.id = p.school_site_id where s.province = 'RM' and p.kind = 'insegnante'`,
      ],
      [
        `schoolSiteId=${sites.paviaSite}`,
        sql`select count(*)::int as n from teacher_profiles where school_site_id = ${sites.paviaSite}`,
      ],
    ];
    for (const [query, expected] of cases) {
      const body = TeacherListResponseSchema.parse((await staff().get(`/api/teachers?${query}`)).json());
      expect(body.total, query).toBe(await scalar(expected));
      expect(body.total, query).toBeGreaterThan(0);
    }
  });

  it('searches names and e-mail without accents or case, and sorts by any whitelisted column', async () => {
    expect(
      TeacherListResponseSchema.parse((await staff().get('/api/teachers?q=NICOLO')).json()).items.map(
        (i) => i.email,
      ),
    ).toEqual(['nicolo.bassi@esempio.it']);
    expect(
      TeacherListResponseSchema.parse((await staff().get('/api/teachers?q=verdi%20lucia')).json()).total,
    ).toBe(1);
    const bySite = TeacherListResponseSchema.parse(
      (await staff().get('/api/teachers?sort=-schoolSiteName')).json(),
    );
    expect(bySite.items.filter((i) => i.schoolSiteName).map((i) => i.schoolSiteName)).toEqual([
      'Plesso Garibaldi',
      'Plesso Garibaldi',
      'Plesso Càrdano',
      'Plesso Càrdano',
    ]);
    const byState = TeacherListResponseSchema.parse(
      (await staff().get('/api/teachers?sort=reviewState&pageSize=50')).json(),
    );
    const states = byState.items.map((i) => i.reviewState);
    expect(states).toEqual([...states].sort());
  });

  it('answers bad input with a 422 in Italian or an empty page, never a 500', async () => {
    for (const query of [
      'kind=preside',
      'reviewState=boh',
      'region=Atlantide',
      'province=ZZ',
      'schoolSiteId=abc',
      'schoolSiteId=-1',
      'sort=password',
      'pageSize=7',
      `q=${'y'.repeat(5000)}`,
    ]) {
      const res = await staff().get(`/api/teachers?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json<{ message: string }>().message, query).toMatch(/non sono validi/);
    }
    for (const query of ['q=%27%3B%20drop%20table%20users%3B%20--', 'page=500']) {
      const res = await staff().get(`/api/teachers?${query}`);
      expect(res.statusCode, query).toBe(200);
      expect(res.json<{ items: unknown[] }>().items).toEqual([]);
    }
  });
});

describe('GET /api/teachers/:teacherId', () => {
  it('shows the profile, plesso and institute, contacts and review state', async () => {
    const res = await as('cromos@demo.test').get(`/api/teachers/${profiles.get('nicolo.bassi@esempio.it')}`);
    expect(res.statusCode).toBe(200);
    expect(TeacherDetailSchema.parse(res.json())).toMatchObject({
      firstName: 'Nicolò',
      kind: 'educatore',
      reviewState: 'da_correggere',
      subjects: ['Matematica', 'Scienze'],
      schoolSiteCode: 'PVEE80001C',
      instituteCode: 'PVIC80000A',
      emailVerified: true,
      phoneVerified: false,
      phone: '+393331112233',
      userStatus: 'active',
    });
  });
});

describe('GET /api/teachers/export', () => {
  it('CSV and XLSX carry exactly the rows of the filter', async () => {
    const csv = await staff().get('/api/teachers/export?format=csv&reviewState=in_attesa');
    expect(csv.statusCode).toBe(200);
    const total = TeacherListResponseSchema.parse(
      (await staff().get('/api/teachers?reviewState=in_attesa')).json(),
    ).total;
    expect(csv.headers['x-total-count']).toBe(String(total));
    expect(csv.headers['content-disposition']).toMatch(/filename="insegnanti-\d{4}-\d{2}-\d{2}\.csv"/);
    // UTF-8 with BOM (what Italian Excel opens correctly); trim() would drop the BOM.
    expect(csv.body.startsWith('\uFEFFCognome;')).toBe(true);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Cognome;Nome;E-mail;Tipo;Stato revisione;Codice plesso;Plesso;Comune;Provincia;Regione;Istituto;E-mail verificata;Telefono verificato;Registrato il',
    );
    expect(lines).toHaveLength(total + 1);
    const xlsx = await staff().get('/api/teachers/export?format=xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(workbook.getWorksheet('Insegnanti')!.rowCount - 1).toBe(profiles.size);
    expect((await staff().get('/api/teachers/export?format=pdf')).statusCode).toBe(422);
  });
});
