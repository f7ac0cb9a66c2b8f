import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH_PATHS, ERROR_MESSAGES } from '@portale/shared/http';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { and, eq, gte, inArray } from 'drizzle-orm';
import { DashboardSummarySchema } from '@portale/shared/dashboard';
import { DEMO_ACCOUNTS } from '../src/seed/seed.ts';
import { auditLog, institutes, outbox, rateLimitHits, schoolSites, users } from '../src/db/schema/index.ts';
import { settleAfterResponse } from '../src/modules/accounts/after-response.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';
import { seedDemoAccessCodes } from '../src/modules/surveys/access-codes-seed.ts';
import { seedDemoSurveys } from '../src/modules/surveys/surveys-seed.ts';
import { CEILING_REACHED_ACTION } from '../src/plugins/rate-limits.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const registration = (email: string) => ({
  kind: 'altro',
  firstName: 'Maria',
  lastName: 'Rossi',
  email,
  phone: '333 765 4321',
  password: 'Quaderno-Girasole-47',
  privacyAccepted: true,
});
const contact = (n: number) => ({
  name: 'Giulia Esposito',
  email: 'giulia@example.it',
  topic: 'iscrizione',
  message: `Buongiorno, vorrei sapere entro quando la scuola può iscriversi (messaggio ${n}).`,
  privacyAccepted: true,
});

/** A fresh address for every request: what a client rotating its source addresses does. */
async function fromNewAddress(t: TestApp, url: string, payload: unknown) {
  const c = new ApiClient(t, nextIp());
  await c.csrf();
  return c.post(url, payload);
}

describe('anonymous traffic per IP, signed-in traffic per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ RATE_LIMIT_MAX: '6', RATE_LIMIT_USER_MAX: '20' });
  });
  afterAll(() => t.close());

  it('lets every teacher behind one school IP work past the per-IP limit, each up to the per-user ceiling', async () => {
    const school = nextIp();
    const anna = new ApiClient(t, school);
    const bruno = new ApiClient(t, school);
    // Two logins: 4 anonymous requests of the school's IP (CSRF cookie and login each).
    expect((await anna.login('insegnante@demo.test')).statusCode).toBe(200);
    expect((await bruno.login('dirigente@demo.test')).statusCode).toBe(200);

    for (let i = 0; i < 15; i += 1) {
      expect((await anna.get(AUTH_PATHS.me)).statusCode).toBe(200);
      expect((await bruno.get(AUTH_PATHS.me)).statusCode).toBe(200);
    }
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1) codes.push((await anna.get(AUTH_PATHS.me)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await anna.get(AUTH_PATHS.me);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      statusCode: 429,
      code: 'rate_limited',
      message: ERROR_MESSAGES.rateLimited,
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Bruno, same IP, is not affected; neither is the school's anonymous traffic (2 of 6 left).
    expect((await bruno.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/public/figures', remoteAddress: school })).statusCode,
    ).toBe(200);

    // The next minute starts a new window.
    t.clock.advance(MINUTE);
    expect((await anna.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('counts a made-up bearer token against its IP, not as a user of its own', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: AUTH_PATHS.me,
        remoteAddress: ip,
        headers: { authorization: `Bearer ${1000 + i}|${'x'.repeat(40)}` },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);
  });
});

describe('hourly ceilings of the costly endpoints, whatever the source address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      GLOBAL_REGISTRATIONS_MAX_PER_HOUR: '3',
      GLOBAL_SMS_MAX_PER_HOUR: '2',
      GLOBAL_CONTACT_MAX_PER_HOUR: '2',
      GLOBAL_EMAILS_MAX_PER_HOUR: '2',
      GLOBAL_CLIENT_SHARE_PERCENT: '100',
    });
    await seedMessageTemplates(t.database.db);
  });
  afterAll(() => t.close());

  it('refuses the registration past the ceiling with an Italian 429 and Retry-After, then accepts again next hour', async () => {
    for (let i = 0; i < 3; i += 1)
      expect(
        (await fromNewAddress(t, '/api/registrations', registration(`r${i}@example.com`))).statusCode,
      ).toBe(202);
    const refused = await fromNewAddress(t, '/api/registrations', registration('r3@example.com'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, code: 'global_rate_limited' });
    expect(refused.json().message).toMatch(
      /^Per sicurezza le nuove registrazioni sono sospese: .* Riprova tra circa \d+ minut[oi]\.$/,
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Invalid requests are refused before they count.
    expect((await fromNewAddress(t, '/api/registrations', { kind: 'insegnante' })).statusCode).toBe(422);

    t.clock.advance(retryAfter * 1000);
    expect((await fromNewAddress(t, '/api/registrations', registration('r4@example.com'))).statusCode).toBe(
      202,
    );
  });

  it('caps SMS codes and contact messages the same way, each on its own budget', async () => {
    t.clock.advance(HOUR);
    const sms = (n: number) =>
      fromNewAddress(t, '/api/phone-verifications', { phone: `+39 320 555 00${10 + n}` });
    expect((await sms(1)).statusCode).toBe(201);
    expect((await sms(2)).statusCode).toBe(201);
    const smsRefused = await sms(3);
    expect(smsRefused.statusCode).toBe(429);
    expect(smsRefused.json().message).toMatch(/SMS/);

    expect((await fromNewAddress(t, '/api/public/contact', contact(1))).statusCode).toBe(202);
    expect((await fromNewAddress(t, '/api/public/contact', contact(2))).statusCode).toBe(202);
    const contactRefused = await fromNewAddress(t, '/api/public/contact', contact(3));
    expect(contactRefused.statusCode).toBe(429);
    expect(contactRefused.json().message).toMatch(/modulo di contatto/);
  });
});

/** A log stream that keeps the API's JSON log lines. */
function logLines() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  };
}

const ceilingWarnings = (lines: Record<string, unknown>[], cap: string) =>
  lines.filter((l) => l.msg === 'global hourly ceiling reached: staff alerted' && l.cap === cap);
const ceilingAudits = async (t: TestApp, cap: string) =>
  (
    await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, CEILING_REACHED_ACTION), eq(auditLog.entityId, cap)))
  ).length;

/** `count` requests from one address at the pace its per-minute limit allows (20 a minute), as one client would. */
async function fromOneAddress(
  t: TestApp,
  ip: string,
  count: number,
  send: (c: ApiClient, i: number) => Promise<{ statusCode: number }>,
) {
  const c = new ApiClient(t, ip);
  await c.csrf();
  const codes: number[] = [];
  for (let i = 0; i < count; i += 1) {
    if (i > 0 && i % 15 === 0) t.clock.advance(MINUTE + 1000);
    codes.push((await send(c, i)).statusCode);
  }
  return codes;
}

describe('a flood of requests that reach nobody real leaves the budget to real users (issue 32, defect 2)', () => {
  let t: TestApp;
  const log = logLines();
  beforeAll(async () => {
    // The defaults scaled down: per-minute limits as shipped, ceilings of 40 (one client may take 5 %: 2).
    t = await buildTestApp(
      {
        LOG_LEVEL: 'warn',
        GLOBAL_SMS_MAX_PER_HOUR: '40',
        GLOBAL_REGISTRATIONS_MAX_PER_HOUR: '40',
        GLOBAL_CONTACT_MAX_PER_HOUR: '40',
        GLOBAL_EMAILS_MAX_PER_HOUR: '10',
        CONTACT_RATE_LIMIT_MAX: '1000',
      },
      { logStream: log.stream },
    );
  });
  afterAll(() => t.close());

  it('forgot-password for unknown addresses, from one client and from many, consumes nothing: a real reset and a verification e-mail still go out', async () => {
    const attacker = nextIp();
    const flood = await fromOneAddress(t, attacker, 60, (c, i) =>
      c.post('/api/auth/forgot-password', { email: `nessuno${i}@example.com` }),
    );
    expect(flood.every((code) => code === 202)).toBe(true);
    for (let i = 0; i < 30; i += 1)
      expect(
        (await fromNewAddress(t, '/api/auth/forgot-password', { email: `ignoto${i}@example.com` }))
          .statusCode,
      ).toBe(202);
    await settleAfterResponse(t.app);

    // A real user asks for a reset from their own connection: the link is queued.
    expect(
      (await fromNewAddress(t, '/api/auth/forgot-password', { email: 'insegnante@demo.test' })).statusCode,
    ).toBe(202);
    await settleAfterResponse(t.app);
    const resets = await t.database.db
      .select()
      .from(outbox)
      .where(
        and(eq(outbox.recipient, 'insegnante@demo.test'), eq(outbox.templateKey, 'email.reset-password')),
      );
    expect(resets).toHaveLength(1);

    // A new participant registers and asks for the verification link again a minute later: it goes out.
    expect(
      (await fromNewAddress(t, '/api/registrations', registration('nuova.iscritta@example.com'))).statusCode,
    ).toBe(202);
    t.clock.advance(MINUTE + 1000);
    expect(
      (await fromNewAddress(t, '/api/email-verifications/resend', { email: 'nuova.iscritta@example.com' }))
        .statusCode,
    ).toBe(202);
    const links = await t.database.db
      .select()
      .from(outbox)
      .where(
        and(eq(outbox.recipient, 'nuova.iscritta@example.com'), eq(outbox.templateKey, 'email.verifica')),
      );
    expect(links).toHaveLength(2);
    // Nothing reached the e-mail ceiling: no alert.
    expect(ceilingWarnings(log.lines, 'emails')).toHaveLength(0);
    expect(await ceilingAudits(t, 'emails')).toBe(0);
  });

  it('one client flooding SMS codes to new numbers, registrations or contact messages uses up only its own share', async () => {
    t.clock.advance(HOUR);
    const attacker = nextIp();
    const cases = [
      ['/api/phone-verifications', (i: number) => ({ phone: `+39 331 000 ${String(1000 + i)}` }), 201],
      ['/api/registrations', (i: number) => registration(`flood${i}@example.com`), 202],
      ['/api/public/contact', (i: number) => contact(i), 202],
    ] as const;
    for (const [url, body, ok] of cases) {
      const codes = await fromOneAddress(t, attacker, 45, (c, i) => c.post(url, body(i)));
      expect(codes.slice(0, 2), url).toEqual([ok, ok]);
      expect(
        codes.slice(2).every((code) => code === 429),
        url,
      ).toBe(true);
      const refused = await fromOneAddress(t, attacker, 1, (c) => c.post(url, body(99)));
      expect(refused, url).toEqual([429]);
    }
    const last = new ApiClient(t, attacker);
    await last.csrf();
    const refused = await last.post('/api/public/contact', contact(100));
    expect(refused.json()).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(refused.json().message).toMatch(
      /^Da questa connessione sono arrivati troppi messaggi nell’ultima ora\. Riprova tra circa \d+ minut[oi]\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Everyone else still gets through: a code to a real new number, a registration, a message.
    expect(
      (await fromNewAddress(t, '/api/phone-verifications', { phone: '+39 347 123 4567' })).statusCode,
    ).toBe(201);
    expect(
      (await fromNewAddress(t, '/api/registrations', registration('vera.persona@example.com'))).statusCode,
    ).toBe(202);
    expect((await fromNewAddress(t, '/api/public/contact', contact(200))).statusCode).toBe(202);
    for (const cap of ['sms', 'registrations', 'contact']) expect(await ceilingAudits(t, cap), cap).toBe(0);
  });

  it('a flood from many addresses reaches the SMS ceiling: new numbers are refused, staff are alerted once, e-mails to accounts still go out', async () => {
    t.clock.advance(HOUR);
    const codes: number[] = [];
    for (let i = 0; i < 45; i += 1)
      codes.push(
        (await fromNewAddress(t, '/api/phone-verifications', { phone: `+39 332 000 ${String(2000 + i)}` }))
          .statusCode,
      );
    expect(codes.filter((c) => c === 201)).toHaveLength(40);
    const refused = await fromNewAddress(t, '/api/phone-verifications', { phone: '+39 347 765 4321' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'global_rate_limited' });
    expect(refused.json().message).toMatch(/^Per sicurezza l’invio dei codici via SMS è sospeso/);
    // One warning in the log and one alert for the staff home, however many were refused.
    expect(ceilingWarnings(log.lines, 'sms')).toHaveLength(1);
    expect(await ceilingAudits(t, 'sms')).toBe(1);

    // A password reset does not draw on the SMS budget.
    expect(
      (await fromNewAddress(t, '/api/auth/forgot-password', { email: 'rilevatore@demo.test' })).statusCode,
    ).toBe(202);
    await settleAfterResponse(t.app);
    expect(
      await t.database.db
        .select()
        .from(outbox)
        .where(
          and(eq(outbox.recipient, 'rilevatore@demo.test'), eq(outbox.templateKey, 'email.reset-password')),
        ),
    ).toHaveLength(1);

    // The super-admin's home shows the note; other staff's does not.
    const admin = new ApiClient(t, nextIp());
    expect((await admin.login('superadmin@demo.test')).statusCode).toBe(200);
    const summary = DashboardSummarySchema.parse((await admin.get('/api/dashboard/summary')).json());
    expect(summary.ceilingAlerts).toEqual([
      expect.objectContaining({
        ceiling: 'sms',
        label: 'codici via SMS',
        max: 40,
        past: 'refuse',
        consequence: expect.stringMatching(/rifiutati/),
      }),
    ]);
    const sylla = new ApiClient(t, nextIp());
    expect((await sylla.login('sylla@demo.test')).statusCode).toBe(200);
    expect(
      DashboardSummarySchema.parse((await sylla.get('/api/dashboard/summary')).json()).ceilingAlerts,
    ).toEqual([]);
    // A day later the note is gone.
    t.clock.advance(25 * HOUR);
    expect(
      DashboardSummarySchema.parse((await admin.get('/api/dashboard/summary')).json()).ceilingAlerts,
    ).toEqual([]);
  });

  it('e-mails to existing accounts past their ceiling still go out, with one alert', async () => {
    t.clock.advance(HOUR);
    const accounts = DEMO_ACCOUNTS.map((a) => a.email).slice(0, 12);
    for (const email of accounts)
      expect((await fromNewAddress(t, '/api/auth/forgot-password', { email })).statusCode).toBe(202);
    await settleAfterResponse(t.app);
    const sent = await t.database.db
      .select()
      .from(outbox)
      .where(
        and(
          eq(outbox.templateKey, 'email.reset-password'),
          gte(outbox.createdAt, new Date(t.clock.now().getTime() - MINUTE)),
        ),
      );
    const active = await t.database.db
      .select({ email: users.email })
      .from(users)
      .where(and(inArray(users.email, accounts), eq(users.status, 'active')));
    expect(active.length).toBeGreaterThan(10);
    expect(sent).toHaveLength(active.length);
    expect(ceilingWarnings(log.lines, 'emails')).toHaveLength(1);
    expect(await ceilingAudits(t, 'emails')).toBe(1);
  });
});

describe('failed access-code look-ups have a portal-wide ceiling (issue 32, defect 7)', () => {
  let t: TestApp;
  let code = '';
  beforeAll(async () => {
    t = await buildTestApp({ GLOBAL_ACCESS_CODE_FAILURES_MAX_PER_HOUR: '30' });
    const db = t.database.db;
    const [institute] = await db.select({ id: institutes.id }).from(institutes).limit(1);
    await db.insert(schoolSites).values({
      ministryCode: 'RMEE8AB09X',
      instituteId: institute!.id,
      name: 'Plesso di prova',
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
      participating: true,
    });
    await seedDemoSurveys(db, t.clock.now());
    code = (await seedDemoAccessCodes(db, t.clock.now()))!;
  });
  afterAll(() => t.close());

  const lookUp = (ip: string, value: string) =>
    t.app.inject({ method: 'GET', url: `/api/access-codes/${value}`, remoteAddress: ip });
  const guess = (i: number) => `Zq${String(10000 + i)}`;

  it('past the ceiling, addresses that keep guessing are refused with an Italian 429; valid codes keep working everywhere', async () => {
    // Guessers on three addresses, under the per-address limit: the 31st failure passes the ceiling.
    const guessers = [nextIp(), nextIp(), nextIp()];
    for (let i = 0; i < 31; i += 1) expect((await lookUp(guessers[i % 3]!, guess(i))).statusCode).toBe(404);
    const refused = await lookUp(guessers[1]!, guess(100));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, code: 'global_rate_limited' });
    expect(refused.json().message).toMatch(
      /^Per sicurezza la verifica dei codici di accesso da questa connessione è sospesa: .* Riprova tra circa \d+ minut[oi]\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before the look-up: a valid code from a guessing address gets the same 429.
    expect((await lookUp(guessers[1]!, code)).statusCode).toBe(429);
    // A school typing the valid code, with a pupil's typo or two, is not affected.
    const school = nextIp();
    expect((await lookUp(school, guess(200))).statusCode).toBe(404);
    for (let i = 0; i < 20; i += 1) expect((await lookUp(school, code)).statusCode).toBe(200);
    expect((await lookUp(nextIp(), code)).statusCode).toBe(200);
    expect(await ceilingAudits(t, 'access-code-failures')).toBe(1);

    // The next hour starts afresh.
    t.clock.advance(HOUR);
    expect((await lookUp(guessers[0]!, guess(300))).statusCode).toBe(404);
  });

  it('valid look-ups never count against the ceiling', async () => {
    t.clock.advance(HOUR);
    const school = nextIp();
    for (let i = 0; i < 60; i += 1) expect((await lookUp(school, code)).statusCode).toBe(200);
    expect(await ceilingAudits(t, 'access-code-failures')).toBe(1);
  });
});

/** A second API instance on the same PostgreSQL database as `t`, with the same settings and clock. */
async function secondInstance(
  t: TestApp,
): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; database: Database }> {
  const { rows } = (await t.database.db.execute(sql`select current_database() as name`)) as unknown as {
    rows: { name: string }[];
  };
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${rows[0]!.name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
  const app = await buildApp({ env: t.env, database, clock: t.clock, logger: false });
  await app.ready();
  return { app, database };
}

describe.skipIf(!process.env.DATABASE_URL)('limits shared by two API instances on one PostgreSQL', () => {
  let t: TestApp;
  let b: Awaited<ReturnType<typeof secondInstance>>;
  beforeAll(async () => {
    t = await buildTestApp({
      RATE_LIMIT_USER_MAX: '20',
      CONTACT_RATE_LIMIT_MAX: '4',
      GLOBAL_REGISTRATIONS_MAX_PER_HOUR: '3',
    });
    await seedMessageTemplates(t.database.db);
    b = await secondInstance(t);
  });
  afterAll(async () => {
    await b.app.close();
    await b.database.close();
    await t.close();
  });

  const instances = () => [t.app, b.app];

  it('a tight per-IP limit counts the requests of both instances (exact)', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const app = instances()[i % 2]!;
      const c = new ApiClient({ ...t, app }, ip);
      await c.csrf();
      codes.push((await c.post('/api/public/contact', contact(i))).statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 429, 429]);
  });

  it('the hourly ceiling counts registrations on both instances, and alerts staff once', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const c = new ApiClient({ ...t, app: instances()[i % 2]! }, nextIp());
      await c.csrf();
      codes.push((await c.post('/api/registrations', registration(`shared${i}@example.com`))).statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 429, 429]);
    // The request that passed the ceiling is one for the whole portal: one alert, whichever instance.
    expect(await ceilingAudits(t, 'registrations')).toBe(1);
  });

  it('the per-user ceiling adds up both instances, each learning the total within about a second', async () => {
    const onA = new ApiClient(t, nextIp());
    expect((await onA.login('insegnante@demo.test')).statusCode).toBe(200);
    const onB = new ApiClient({ ...t, app: b.app }, nextIp());
    onB.token = onA.token;
    for (let i = 0; i < 10; i += 1) {
      expect((await onA.get(AUTH_PATHS.me)).statusCode).toBe(200);
      expect((await onB.get(AUTH_PATHS.me)).statusCode).toBe(200);
    }
    // The ceiling (20) is reached with 10 requests on each: alone, each instance would allow 10 more.
    let extra = 0;
    const refused = { a: false, b: false };
    for (let round = 0; round < 10 && !(refused.a && refused.b); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      for (const [name, c] of [
        ['a', onA],
        ['b', onB],
      ] as const) {
        const status = (await c.get(AUTH_PATHS.me)).statusCode;
        if (status === 200) extra += 1;
        else if (status === 429) refused[name] = true;
      }
    }
    expect(refused).toEqual({ a: true, b: true });
    // Alone, the two would let 20 more through; together only what each received before its next
    // exchange of counts (one request every 400 ms, exchanges every second).
    expect(extra).toBeLessThanOrEqual(8);
  });

  it('stores keyed hashes only: no IP address or user id in the counters table', async () => {
    const rows = await t.database.db.select().from(rateLimitHits);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.key).toMatch(/^[A-Za-z0-9_-]{27}$/);
  });
});
