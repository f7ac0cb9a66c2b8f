import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_LEVELS } from '@portale/shared/registry';
import { RESULTS_MESSAGES, ResultsResponseSchema, type ResultsResponse } from '@portale/shared/surveys';
import { DEMO_ACCOUNTS } from '../../seed/seed.ts';
import { buildTestApp, type TestApp, sqlRows } from '../../../test/build-test-app.ts';
import { ApiClient, nextIp } from '../../../test/http-client.ts';
import { derivableCounts } from '../../../test/results-attacker.ts';

let t: TestApp;
const guest = () => new ApiClient(t, nextIp());

async function results(query = ''): Promise<ResultsResponse> {
  const res = await guest().get(`/api/results${query ? `?${query}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return ResultsResponseSchema.parse(res.json());
}

const SECRET_TEXT = 'RISPOSTA-APERTA-SEGRETA';
let closedId: number;
let olderClosedId: number;
let simpleId: number;
let simpleQuestionIds: typeof questionIds;
let draftId: number;
let openId: number;
let questionIds: { single: number; multiple: number; scale: number; text: number };

/** The groups of the test population: [region, level, respondents]. Lazio infanzia (3) and Lombardia secondaria I (2) are small. */
const POPULATION: [string, (typeof SCHOOL_LEVELS)[number], number][] = [
  ['Lazio', 'primaria', 20],
  ['Lazio', 'infanzia', 3],
  ['Lazio', 'secondaria_primo_grado', 8],
  ['Lombardia', 'primaria', 12],
  ['Lombardia', 'secondaria_primo_grado', 2],
];
const TOTAL = POPULATION.reduce((s, p) => s + p[2], 0);

async function insertSurvey(slug: string, state: string, closedAt: string | null): Promise<number> {
  const [row] = await sqlRows<{
    id: number;
  }>(
    t,
    sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on, closed_at)
    values (${slug}, ${`Indagine ${slug}`}, 'Scopo di prova abbastanza lungo.', 'Insegnanti', ${state}, '2026-01-10', '2026-03-10', ${closedAt}) returning id::int as id`,
  );
  return Number(row!.id);
}

async function insertQuestion(
  surveyId: number,
  position: number,
  type: string,
  required: boolean,
  options: string[],
): Promise<number> {
  const [row] = await sqlRows<{
    id: number;
  }>(
    t,
    sql`insert into survey_questions (survey_id, position, type, label, required, options)
    values (${surveyId}, ${position}, ${type}, ${`Domanda ${position}`}, ${required}, ${JSON.stringify(options)}::jsonb) returning id::int as id`,
  );
  return Number(row!.id);
}

beforeAll(async () => {
  t = await buildTestApp({}, { registry: 'sample' });
  olderClosedId = await insertSurvey('vecchia', 'chiusa', '2026-03-11T10:00:00Z');
  closedId = await insertSurvey('pilota', 'chiusa', '2026-06-01T10:00:00Z');
  draftId = await insertSurvey('bozza', 'bozza', null);
  openId = await insertSurvey('aperta', 'aperta', null);
  questionIds = {
    single: await insertQuestion(closedId, 1, 'scelta_singola', true, ['A', 'B', 'C']),
    multiple: await insertQuestion(closedId, 2, 'scelta_multipla', false, ['X', 'Y']),
    scale: await insertQuestion(closedId, 3, 'scala', true, []),
    text: await insertQuestion(closedId, 4, 'testo_breve', false, []),
  };
  // One plesso, 45 respondents: every view is the same group and every cell is shown.
  simpleId = await insertSurvey('semplice', 'chiusa', '2026-04-01T10:00:00Z');
  simpleQuestionIds = {
    single: await insertQuestion(simpleId, 1, 'scelta_singola', true, ['A', 'B', 'C']),
    multiple: await insertQuestion(simpleId, 2, 'scelta_multipla', false, ['X', 'Y']),
    scale: await insertQuestion(simpleId, 3, 'scala', true, []),
    text: await insertQuestion(simpleId, 4, 'testo_breve', false, []),
  };
  const [one] = await sqlRows<{ id: number }>(
    t,
    sql`select id::int as id from school_sites where region = 'Lazio' and school_level = 'primaria' order by id limit 1`,
  );
  for (let seq = 0; seq < TOTAL; seq++) {
    const answers = {
      [simpleQuestionIds.single]: ['A', 'A', 'B', 'A', 'C'][seq % 5]!,
      [simpleQuestionIds.multiple]: seq % 3 === 0 ? ['X'] : seq % 3 === 1 ? ['X', 'Y'] : [],
      [simpleQuestionIds.scale]: (seq % 5) + 1,
      [simpleQuestionIds.text]: `${SECRET_TEXT} ${seq}`,
    };
    await t.database.db.execute(
      sql`insert into survey_responses (survey_id, school_site_id, answers) values (${simpleId}, ${one!.id}, ${JSON.stringify(answers)}::jsonb)`,
    );
  }
  let seq = 0;
  for (const [region, level, n] of POPULATION) {
    const [site] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int as id from school_sites where region = ${region} and school_level = ${level} order by id limit 1`,
    );
    expect(site, `${region} ${level}`).toBeDefined();
    for (let i = 0; i < n; i++, seq++) {
      const answers = {
        [questionIds.single]: ['A', 'A', 'B', 'A', 'C'][seq % 5]!,
        [questionIds.multiple]: seq % 3 === 0 ? ['X'] : seq % 3 === 1 ? ['X', 'Y'] : [],
        [questionIds.scale]: (seq % 5) + 1,
        [questionIds.text]: `${SECRET_TEXT} ${seq}`,
      };
      await t.database.db.execute(
        sql`insert into survey_responses (survey_id, school_site_id, answers) values (${closedId}, ${site!.id}, ${JSON.stringify(answers)}::jsonb)`,
      );
    }
    // The open and draft surveys have answers too: never published.
    await t.database.db.execute(
      sql`insert into survey_responses (survey_id, school_site_id, answers) values (${openId}, ${site!.id}, '{}'::jsonb), (${draftId}, ${site!.id}, '{}'::jsonb)`,
    );
  }
  // The older closed survey: 3 respondents only.
  for (let i = 0; i < 3; i++)
    await t.database.db.execute(
      sql`insert into survey_responses (survey_id, school_site_id, answers) values (${olderClosedId}, null, '{}'::jsonb)`,
    );
}, 180_000);
afterAll(() => t.close());

describe('GET /api/results: only closed surveys, for anyone', () => {
  it('a guest gets the latest closed survey by default, and the list of closed surveys (latest first)', async () => {
    const data = await results();
    expect(data.survey?.id).toBe(closedId);
    expect(data.surveys.map((s) => s.id)).toEqual([closedId, simpleId, olderClosedId]);
    expect(data.status).toBe('shown');
    expect(data.respondents).toBe(TOTAL);
    expect(data.minGroup).toBe(5);
  });

  it('every demo account reads the same public results', async () => {
    const expected = await results();
    for (const account of DEMO_ACCOUNTS.slice(0, 3)) {
      const client = new ApiClient(t, nextIp());
      await client.login(account.email);
      const res = await client.get('/api/results');
      expect(res.statusCode, account.email).toBe(200);
      expect(res.json()).toEqual(expected);
    }
  });

  it('a draft, an open or an unknown survey is a 404 with an Italian message; a bad filter a 422', async () => {
    for (const id of [draftId, openId, 999_999]) {
      const res = await guest().get(`/api/results?survey=${id}`);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().message).toBe(RESULTS_MESSAGES.notFound);
      expect((await guest().get(`/api/results/export?survey=${id}`)).statusCode).toBe(404);
    }
    for (const q of ['survey=abc', 'survey=0', 'region=Atlantide', 'schoolLevel=universita']) {
      const res = await guest().get(`/api/results?${q}`);
      expect(res.statusCode, q).toBe(422);
    }
  });

  it('a closed survey with fewer than 5 respondents shows nothing but the refusal', async () => {
    const data = await results(`survey=${olderClosedId}`);
    expect(data.status).toBe('suppressed');
    expect(data.respondents).toBeNull();
    expect(data.questions).toEqual([]);
  });

  it('publishes the aggregable questions only: counts per option, per scale value and the mean; never a text answer', async () => {
    const res = await guest().get(`/api/results?survey=${simpleId}&region=Lazio`);
    expect(res.body).not.toContain(SECRET_TEXT);
    const data = ResultsResponseSchema.parse(res.json());
    expect(data.textQuestions).toBe(1);
    expect(data.questions.map((q) => q.id)).toEqual([
      simpleQuestionIds.single,
      simpleQuestionIds.multiple,
      simpleQuestionIds.scale,
    ]);
    const [single, multiple, scale] = data.questions;
    expect(single!.rows.map((r) => r.key)).toEqual(['A', 'B', 'C']);
    // seq % 5 → A, A, B, A, C over 45 respondents: 27, 9, 9.
    expect(data.respondents).toBe(45);
    expect(single!.rows.map((r) => r.count)).toEqual([27, 9, 9]);
    expect(single!.answered).toBe(45);
    expect(single!.rows[0]!.percent).toBe(60);
    // Multiple choice: X chosen by seq%3 ∈ {0,1} (30), Y by seq%3 = 1 (15); not required, so no "no answer" row for options.
    expect(multiple!.rows.map((r) => [r.key, r.count])).toEqual([
      ['X', 30],
      ['Y', 15],
    ]);
    expect(scale!.rows.map((r) => r.count)).toEqual([9, 9, 9, 9, 9]);
    expect(scale!.mean).toBe(3);
  });
});

describe('k-anonymity (decision 018): no group of 1–4 is shown or derivable', () => {
  const regions = ['Lazio', 'Lombardia'];
  const views = [
    { region: null, level: null },
    ...regions.map((region) => ({ region, level: null })),
    ...SCHOOL_LEVELS.map((level) => ({ region: null, level })),
    ...regions.flatMap((region) => SCHOOL_LEVELS.map((level) => ({ region, level }))),
  ];
  const queryOf = (v: { region: string | null; level: string | null }) =>
    new URLSearchParams({
      ...(v.region ? { region: v.region } : {}),
      ...(v.level ? { schoolLevel: v.level } : {}),
    }).toString();
  let all: { view: (typeof views)[number]; data: ResultsResponse }[];

  beforeAll(async () => {
    all = [];
    for (const view of views) all.push({ view, data: await results(queryOf(view)) });
  });
  const of = (region: string | null, level: string | null) =>
    all.find((a) => a.view.region === region && a.view.level === level)!.data;

  it('small groups are refused with the message, not an error: Lazio infanzia (3), Lombardia secondaria I (2), infanzia (3)', () => {
    for (const [region, level] of [
      ['Lazio', 'infanzia'],
      ['Lombardia', 'secondaria_primo_grado'],
      [null, 'infanzia'],
    ] as const) {
      const data = of(region, level);
      expect(data.status, `${region} ${level}`).toBe('suppressed');
      expect(data.respondents).toBeNull();
      expect(data.questions).toEqual([]);
    }
    // Decision 035: a group nobody is in reads like a small one.
    expect(of('Lazio', 'altro').status).toBe('suppressed');
    expect(of('Lazio', 'altro').respondents).toBeNull();
  });

  it('the complementary attack: national − region, region − region × level, level − region × level never gives 1–4', () => {
    const n = (region: string | null, level: string | null) => of(region, level).respondents;
    const pairs: [[string | null, string | null], [string | null, string | null]][] = [];
    for (const r of regions)
      pairs.push([
        [null, null],
        [r, null],
      ]);
    for (const l of SCHOOL_LEVELS)
      pairs.push([
        [null, null],
        [null, l],
      ]);
    for (const r of regions)
      for (const l of SCHOOL_LEVELS)
        pairs.push(
          [
            [r, null],
            [r, l],
          ],
          [
            [null, l],
            [r, l],
          ],
        );
    for (const [parent, child] of pairs) {
      const a = n(...parent);
      const b = n(...child);
      if (a === null || b === null) continue;
      expect(a - b === 0 || a - b >= 5, `${parent} − ${child} = ${a - b}`).toBe(true);
      // The same for every published cell.
      const pq = of(...parent).questions;
      const cq = of(...child).questions;
      for (const q of pq) {
        for (const row of q.rows) {
          const other = cq.find((x) => x.id === q.id)?.rows.find((r) => r.key === row.key)?.count;
          if (row.count === null || other === null || other === undefined) continue;
          expect(
            row.count - other === 0 || row.count - other >= 5,
            `${q.label} ${row.key}: ${parent} − ${child}`,
          ).toBe(true);
        }
      }
    }
    // Here: Lazio shows 31, the national 45, Lombardia 14: one of the regions must go with Lombardia's small level.
    expect(n(null, null)).toBe(TOTAL);
  });

  it('an attacker combining every allowed view (totals and single-choice cells) derives no count of 1–4', () => {
    // Unknowns: (region, level) groups of the population × the single-choice answer.
    const cats = ['A', 'B', 'C'];
    const groups = POPULATION.map(([r, l]) => ({ r, l }));
    let seq = 0;
    const values = new Array<number>(groups.length * cats.length).fill(0);
    POPULATION.forEach(([, , n], g) => {
      for (let i = 0; i < n; i++, seq++)
        values[g * cats.length + cats.indexOf(['A', 'A', 'B', 'A', 'C'][seq % 5]!)]! += 1;
    });
    const inView = (g: number, v: { region: string | null; level: string | null }) =>
      (v.region === null || groups[g]!.r === v.region) && (v.level === null || groups[g]!.l === v.level);
    const published: number[][] = [];
    for (const { view, data } of all) {
      if (data.status !== 'shown') continue;
      published.push(values.map((_, i) => (inView(Math.floor(i / cats.length), view) ? 1 : 0)));
      for (const row of data.questions.find((q) => q.id === questionIds.single)!.rows) {
        if (row.count === null) continue;
        published.push(
          values.map((_, i) =>
            inView(Math.floor(i / cats.length), view) && cats[i % cats.length] === row.key ? 1 : 0,
          ),
        );
      }
    }
    const leaks = derivableCounts(published, values).filter((d) => d.count > 0 && d.count < 5);
    expect(leaks).toEqual([]);
  });

  it('within a shown view, protected rows hide the total and the mean', () => {
    for (const { data } of all) {
      for (const q of data.questions) {
        const protectedRows = q.rows.filter((r) => r.count === null).length;
        expect(q.protectedRows).toBe(protectedRows);
        if (protectedRows > 0) {
          expect(q.answered).toBeNull();
          expect(q.mean).toBeNull();
          // A lone protected row is the respondents minus the others: then it must not be small.
          if (q.type !== 'scelta_multipla' && protectedRows === 1)
            expect(data.respondents! - q.rows.reduce((s, r) => s + (r.count ?? 0), 0)).toBeGreaterThanOrEqual(
              5,
            );
        }
        for (const r of q.rows) if (r.count !== null) expect(r.count === 0 || r.count >= 5).toBe(true);
      }
    }
  });
});

function parseCsv(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return body
    .slice(1)
    .trim()
    .split('\r\n')
    .map((line) => line.split(';').map((f) => f.replace(/^"|"$/g, '').replace(/""/g, '"')));
}

describe('GET /api/results/export', () => {
  for (const query of [
    '',
    'region=Lazio',
    'region=Lombardia',
    'schoolLevel=primaria',
    'region=Lazio&schoolLevel=infanzia',
  ]) {
    it(`is exactly what the JSON shows (${query || 'national'})`, async () => {
      const data = await results(query);
      const res = await guest().get(`/api/results/export${query ? `?${query}` : ''}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      expect(res.body).not.toContain(SECRET_TEXT);
      const [header, ...lines] = parseCsv(res.body);
      expect(header).toEqual([
        'Indagine',
        'Gruppo',
        'Domanda',
        'Risposta',
        'Numero',
        'Percentuale sui rispondenti',
        'Note',
      ]);
      // Decision 035: the methodology is linked from the file (first line's note) and the answer's Link header.
      const methodology = `${t.app.env.publicWebUrl}/risultati/metodologia`;
      expect(res.headers.link).toBe(`<${methodology}>; rel="describedby"`);
      expect(lines[0]![6]).toBe(RESULTS_MESSAGES.exportNote(data.minGroup, methodology));
      for (const l of lines.slice(1)) expect(l[6]).toBe('');
      if (data.status === 'suppressed') {
        expect(lines).toHaveLength(1);
        expect(lines[0]!.slice(3, 5)).toEqual([RESULTS_MESSAGES.groupTooSmall, 'c']);
        return;
      }
      expect(lines[0]!.slice(2, 5)).toEqual(['Rispondenti', '', String(data.respondents)]);
      const expected: string[][] = [];
      for (const q of data.questions) {
        for (const r of q.rows)
          expected.push([
            q.label,
            r.label,
            r.count === null ? RESULTS_MESSAGES.protectedCell : String(r.count),
          ]);
        if (q.answered !== null) expected.push([q.label, 'Totale risposte', String(q.answered)]);
        if (q.mean !== null)
          expected.push([
            q.label,
            'Media',
            q.mean.toLocaleString('it-IT', { useGrouping: false, maximumFractionDigits: 2 }),
          ]);
      }
      expect(lines.slice(1).map((l) => l.slice(2, 5))).toEqual(expected);
      for (const l of lines) expect(l[0]).toBe(data.survey!.title);
    });
  }

  it('also as XLSX, with the note of the flag and the methodology in a sheet "Note"', async () => {
    const res = await guest().get('/api/results/export?format=xlsx&region=Lazio');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['Risultati', 'Note']);
    const methodology = `${t.app.env.publicWebUrl}/risultati/metodologia`;
    expect(book.worksheets[1]!.getRow(2).getCell(1).value).toBe(RESULTS_MESSAGES.exportNote(5, methodology));
    expect((await guest().get('/api/results/export?format=pdf')).statusCode).toBe(422);
  });

  it('neutralises a formula in a question or an option, and leaves plain signed numbers alone', async () => {
    const id = await insertSurvey('formula', 'chiusa', '2026-01-01T00:00:00Z');
    const q = await sqlRows<{
      id: number;
    }>(
      t,
      sql`insert into survey_questions (survey_id, position, type, label, required, options)
      values (${id}, 1, 'scelta_singola', '=HYPERLINK("x")', true, ${JSON.stringify(['+1', '-2', "-2+3+cmd|' /C calc'!A0"])}::jsonb) returning id::int as id`,
    );
    const [site] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int as id from school_sites order by id limit 1`,
    );
    for (let i = 0; i < 10; i++)
      await t.database.db.execute(
        sql`insert into survey_responses (survey_id, school_site_id, answers) values (${id}, ${site!.id}, ${JSON.stringify({ [q[0]!.id]: i % 2 ? '+1' : '-2' })}::jsonb)`,
      );
    const res = await guest().get(`/api/results/export?survey=${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`"'=HYPERLINK(""x"")"`);
    expect(res.body).toContain(";'-2+3+cmd|' /C calc'!A0;0;");
    // Numbers and signs that cannot run anything are data, kept as typed (no visible apostrophe).
    expect(res.body).toContain(';+1;5;50,0');
    expect(res.body).toContain(';-2;5;50,0');
    expect(res.body).not.toMatch(/;=|;-2\+3/);
  });
});

describe('decision 035 over the API', () => {
  it('GET /api/results/methodology: the threshold in force, the legal floor and the flag', async () => {
    const res = await guest().get('/api/results/methodology');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      minGroup: 5,
      legalFloor: 3,
      flag: 'c',
      earlierWaves: 3,
      path: '/risultati/metodologia',
    });
  });

  it('RESULTS_MIN_CELL=3 is the threshold of the methodology, the JSON and the computation', async () => {
    const three = await buildTestApp({ RESULTS_MIN_CELL: '3' });
    try {
      const methodology = await three.app.inject({ method: 'GET', url: '/api/results/methodology' });
      expect(methodology.json().minGroup).toBe(3);
      const id = Number(
        (
          await sqlRows<{ id: number }>(
            three,
            sql`insert into surveys (slug, title, purpose, audience, state, opens_on, closes_on, closed_at)
          values ('soglia', 'Soglia', 'Scopo di prova abbastanza lungo.', 'Insegnanti', 'chiusa', '2026-01-10', '2026-03-10', '2026-03-11T10:00:00Z') returning id::int as id`,
          )
        )[0]!.id,
      );
      // Four respondents without a plesso: under 5, at least 3.
      for (let i = 0; i < 4; i++)
        await three.database.db.execute(
          sql`insert into survey_responses (survey_id, school_site_id, answers) values (${id}, null, '{}'::jsonb)`,
        );
      const data = ResultsResponseSchema.parse(
        (await three.app.inject({ method: 'GET', url: `/api/results?survey=${id}` })).json(),
      );
      expect(data).toMatchObject({ minGroup: 3, status: 'shown', respondents: 4 });
    } finally {
      await three.close();
    }
  });

  it('two waves of the same question: the newcomer of Lazio × primaria (12, then 13) is not told; the cache follows the earlier wave', async () => {
    const [site] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int as id from school_sites where region = 'Lazio' and school_level = 'primaria' order by id limit 1`,
    );
    const [other] = await sqlRows<{ id: number }>(
      t,
      sql`select id::int as id from school_sites where region = 'Lazio' and school_level = 'infanzia' order by id limit 1`,
    );
    const label = 'Nella tua scuola ci sono episodi di bullismo?';
    const wave = async (slug: string, closedAt: string, lp: string[], li: string[]) => {
      const id = await insertSurvey(slug, 'chiusa', closedAt);
      const [q] = await sqlRows<{ id: number }>(
        t,
        sql`insert into survey_questions (survey_id, position, type, label, required, options)
        values (${id}, 1, 'scelta_singola', ${label}, true, ${JSON.stringify(['A', 'B'])}::jsonb) returning id::int as id`,
      );
      for (const [siteId, answers] of [
        [site!.id, lp],
        [other!.id, li],
      ] as const)
        for (const a of answers)
          await t.database.db.execute(
            sql`insert into survey_responses (survey_id, school_site_id, answers) values (${id}, ${siteId}, ${JSON.stringify({ [q!.id]: a })}::jsonb)`,
          );
      return id;
    };
    const many = (a: number, b: number) => [...Array<string>(a).fill('A'), ...Array<string>(b).fill('B')];
    const first = await wave('onda-1', '2026-06-10T10:00:00Z', many(6, 6), many(8, 7));
    const second = await wave('onda-2', '2026-06-20T10:00:00Z', many(7, 6), many(8, 7));
    const rows = async (survey: number) => {
      const data = await results(`survey=${survey}&region=Lazio&schoolLevel=primaria`);
      return { respondents: data.respondents, rows: data.questions[0]!.rows.map((r) => r.count) };
    };
    expect(await rows(first)).toEqual({ respondents: 12, rows: [6, 6] });
    expect(await rows(second)).toEqual({ respondents: 13, rows: [null, null] });
    // Nothing else of the second wave gives the newcomer's answer either: Lazio and primaria minus their other crosses.
    const lazio = await results(`survey=${second}&region=Lazio`);
    const infanzia = await results(`survey=${second}&region=Lazio&schoolLevel=infanzia`);
    const lazio1 = await results(`survey=${first}&region=Lazio`);
    const a = (d: ResultsResponse) => d.questions[0]?.rows[0]?.count ?? null;
    if (a(lazio) !== null && a(infanzia) !== null && a(lazio1) !== null)
      expect(a(lazio)! - a(infanzia)! - 6).not.toBe(1);
    // Staff hold the earlier wave's Lazio × primaria answers: its version changes, and the later wave is
    // computed again against it (0, then 7 and 6: changes of 5 or more are shown).
    await t.database.db.execute(
      sql`update survey_responses set hold = 'sospesa' where survey_id = ${first} and school_site_id = ${site!.id}`,
    );
    expect((await results(`survey=${first}&region=Lazio&schoolLevel=primaria`)).status).toBe('suppressed');
    expect(await rows(second)).toEqual({ respondents: 13, rows: [7, 6] });
  });
});

describe('decision 035: the scenarios of issue 37 through SQL, JSON and CSV', () => {
  it('a unanimous group and a required multiple choice: withheld alike in the JSON and the CSV', async () => {
    const id = await insertSurvey('unanimi', 'chiusa', '2026-05-01T10:00:00Z');
    const [yesNo] = await sqlRows<{ id: number }>(
      t,
      sql`insert into survey_questions (survey_id, position, type, label, required, options)
      values (${id}, 1, 'scelta_singola', 'Episodi di bullismo quest’anno?', true, ${JSON.stringify(['Sì', 'No'])}::jsonb) returning id::int as id`,
    );
    const [devices] = await sqlRows<{ id: number }>(
      t,
      sql`insert into survey_questions (survey_id, position, type, label, required, options)
      values (${id}, 2, 'scelta_multipla', 'Quali dispositivi usi in classe?', true, ${JSON.stringify(['Tablet', 'PC'])}::jsonb) returning id::int as id`,
    );
    const siteOf = async (region: string, level: string) =>
      (
        await sqlRows<{ id: number }>(
          t,
          sql`select id::int as id from school_sites where region = ${region} and school_level = ${level} order by id limit 1`,
        )
      )[0]!.id;
    const primaria = await siteOf('Lazio', 'primaria');
    const infanzia = await siteOf('Lazio', 'infanzia');
    const answer = async (site: number, n: number, single: string, multiple: string[]) => {
      for (let i = 0; i < n; i++)
        await t.database.db.execute(
          sql`insert into survey_responses (survey_id, school_site_id, answers) values (${id}, ${site}, ${JSON.stringify({ [yesNo!.id]: single, [devices!.id]: multiple })}::jsonb)`,
        );
    };
    // Lazio × primaria: 12 respondents, all "Sì"; Tablet 6, PC 7 (one ticked both).
    await answer(primaria, 5, 'Sì', ['Tablet']);
    await answer(primaria, 6, 'Sì', ['PC']);
    await answer(primaria, 1, 'Sì', ['Tablet', 'PC']);
    await answer(infanzia, 7, 'No', ['Tablet']);
    await answer(infanzia, 6, 'Sì', ['PC']);
    const data = await results(`survey=${id}&region=Lazio&schoolLevel=primaria`);
    expect(data.respondents).toBe(12);
    const [single, multiple] = data.questions;
    expect(single!.rows.map((r) => r.count)).toEqual([null, null]);
    expect(multiple!.rows.map((r) => r.count).filter((c) => c === null).length).toBeGreaterThan(0);
    const csv = await guest().get(`/api/results/export?survey=${id}&region=Lazio&schoolLevel=primaria`);
    const lines = parseCsv(csv.body);
    expect(lines.filter((l) => l[2] === 'Episodi di bullismo quest’anno?').map((l) => l[4])).toEqual([
      'c',
      'c',
    ]);
    expect(lines.filter((l) => l[2] === 'Quali dispositivi usi in classe?').map((l) => l[4])).toEqual(
      multiple!.rows.map((r) => (r.count === null ? 'c' : String(r.count))),
    );
  });
});
