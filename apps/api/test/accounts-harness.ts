import { desc, eq } from 'drizzle-orm';
import { authenticator } from './totp-helper.ts';
import { institutes, outbox, schoolSites } from '../src/db/schema/index.ts';
import { DEMO_PASSWORD } from '../src/seed/seed.ts';
import { settleAfterResponse } from '../src/modules/accounts/after-response.ts';
import { seedMessageTemplates } from '../src/seed/message-templates.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';

export interface Call {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  bearer?: string;
  headers?: Record<string, string>;
}

/** The test app with message templates and one plesso (id in `siteId`). */
export async function buildAccountsApp(overrides: Record<string, string> = {}) {
  const t = await buildTestApp({ ACCOUNT_RATE_LIMIT_MAX: '1000', ...overrides });
  await seedMessageTemplates(t.database.db);
  const [institute] = await t.database.db.select().from(institutes).limit(1);
  const [site] = await t.database.db
    .insert(schoolSites)
    .values({
      ministryCode: 'RMEE8AB01A',
      instituteId: institute!.id,
      name: 'Plesso Giuseppe Garibaldi',
      schoolLevel: 'primaria',
      typeLabel: 'Scuola primaria',
      municipalityCode: 'H501',
      municipalityName: 'Roma',
      province: 'RM',
      region: 'Lazio',
    })
    .returning();
  return Object.assign(t, { siteId: site!.id });
}

/** Calls the API with a valid XSRF pair (bound to the bearer's session when there is one). */
export async function call(t: TestApp, c: Call) {
  const auth: Record<string, string> = c.bearer ? { authorization: `Bearer ${c.bearer}` } : {};
  const headers: Record<string, string> = { 'user-agent': 'vitest', ...auth, ...c.headers };
  if (c.method !== 'GET') {
    const csrf = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers: auth });
    const xsrf = csrf.cookies.find((k) => k.name === 'XSRF-TOKEN')!.value;
    headers.cookie = `XSRF-TOKEN=${xsrf}`;
    headers['x-xsrf-token'] = xsrf;
  }
  return t.app.inject({
    method: c.method,
    url: c.url,
    headers,
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
}

/** Messages queued for a recipient, newest first (once the work started after responses is done). */
export async function messagesTo(t: TestApp, recipient: string) {
  await settleAfterResponse(t.app);
  return t.database.db.select().from(outbox).where(eq(outbox.recipient, recipient)).orderBy(desc(outbox.id));
}

/** The token in the newest link of a template sent to `recipient`. */
export async function linkToken(t: TestApp, recipient: string, templateKey: string): Promise<string> {
  const rows = await messagesTo(t, recipient);
  const row = rows.find((m) => m.templateKey === templateKey);
  const match = /token=([A-Za-z0-9_-]+)/.exec(row?.textBody ?? '');
  if (!match) throw new Error(`no ${templateKey} link for ${recipient}`);
  return match[1]!;
}

/** Logs in with password (and TOTP for staff); returns the bearer token. */
export async function login(t: TestApp, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await call(t, { method: 'POST', url: '/api/auth/login', body: { email, password } });
  const body = res.json();
  if (body.token) return body.token;
  if (body.mfa_required) {
    const code = await authenticator(t.clock.now());
    const verified = await call(t, {
      method: 'POST',
      url: '/api/auth/mfa/verify',
      body: { mfa_token: body.mfa_token, code },
    });
    return verified.json().token;
  }
  throw new Error(`login failed: ${res.statusCode} ${res.body}`);
}

export const STRONG_PASSWORD = 'Quaderno-Girasole-47';
