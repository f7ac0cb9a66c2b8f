import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUTH_PATHS, ERROR_MESSAGES } from '@portale/shared/http';
import { buildApp } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import { rateLimitHits } from '../src/db/schema/index.ts';
import { seedMessageTemplates } from '../src/modules/messages/outbox.repository.ts';
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
    expect(refused.json()).toEqual({ statusCode: 429, code: 'rate_limited', message: ERROR_MESSAGES.rateLimited });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Bruno, same IP, is not affected; neither is the school's anonymous traffic (2 of 6 left).
    expect((await bruno.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/public/figures', remoteAddress: school })).statusCode).toBe(200);

    // The next minute starts a new window.
    t.clock.advance(MINUTE);
    expect((await anna.get(AUTH_PATHS.me)).statusCode).toBe(200);
  });

  it('counts a made-up bearer token against its IP, not as a user of its own', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await t.app.inject({ method: 'GET', url: AUTH_PATHS.me, remoteAddress: ip, headers: { authorization: `Bearer ${1000 + i}|${'x'.repeat(40)}` } });
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
    });
    await seedMessageTemplates(t.database.db);
  });
  afterAll(() => t.close());

  it('refuses the registration past the ceiling with an Italian 429 and Retry-After, then accepts again next hour', async () => {
    for (let i = 0; i < 3; i += 1) expect((await fromNewAddress(t, '/api/registrations', registration(`r${i}@example.com`))).statusCode).toBe(202);
    const refused = await fromNewAddress(t, '/api/registrations', registration('r3@example.com'));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ statusCode: 429, code: 'global_rate_limited' });
    expect(refused.json().message).toMatch(/^Per sicurezza le nuove registrazioni sono sospese: .* Riprova tra circa \d+ minut[oi]\.$/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Invalid requests are refused before they count.
    expect((await fromNewAddress(t, '/api/registrations', { kind: 'insegnante' })).statusCode).toBe(422);

    t.clock.advance(retryAfter * 1000);
    expect((await fromNewAddress(t, '/api/registrations', registration('r4@example.com'))).statusCode).toBe(202);
  });

  it('caps SMS codes, contact messages and e-mails the same way, each on its own budget', async () => {
    t.clock.advance(HOUR);
    const sms = (n: number) => fromNewAddress(t, '/api/phone-verifications', { phone: `+39 320 555 00${10 + n}` });
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

    for (let i = 0; i < 2; i += 1) expect((await fromNewAddress(t, '/api/auth/forgot-password', { email: `x${i}@example.com` })).statusCode).toBe(202);
    const mailRefused = await fromNewAddress(t, '/api/auth/forgot-password', { email: 'x9@example.com' });
    expect(mailRefused.statusCode).toBe(429);
    expect(mailRefused.json().message).toMatch(/e-mail/);
  });
});

/** A second API instance on the same PostgreSQL database as `t`, with the same settings and clock. */
async function secondInstance(t: TestApp): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; database: Database }> {
  const { rows } = (await t.database.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
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
    t = await buildTestApp({ RATE_LIMIT_USER_MAX: '20', CONTACT_RATE_LIMIT_MAX: '4', GLOBAL_REGISTRATIONS_MAX_PER_HOUR: '3' });
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

  it('the hourly ceiling counts registrations on both instances', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const c = new ApiClient({ ...t, app: instances()[i % 2]! }, nextIp());
      await c.csrf();
      codes.push((await c.post('/api/registrations', registration(`shared${i}@example.com`))).statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 429, 429]);
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
      for (const [name, c] of [['a', onA], ['b', onB]] as const) {
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
