import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MeResponseSchema, type SessionUser } from '@portale/shared/auth';
import { AUTH_PATHS } from '@portale/shared/http';
import { PAGES, getPage, ACCESS_MESSAGES, evaluateAccess } from '@portale/shared/pages';
import { DEMO_ACCOUNTS } from '../src/seed/seed.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';

let t: TestApp;
const sessions = new Map<string, { client: ApiClient; user: SessionUser }>();

beforeAll(async () => {
  t = await buildTestApp();
  for (const account of DEMO_ACCOUNTS) {
    const client = new ApiClient(t, nextIp());
    expect((await client.login(account.email)).statusCode, account.email).toBe(200);
    const { user } = MeResponseSchema.parse((await client.get(AUTH_PATHS.me)).json());
    sessions.set(account.email, { client, user });
  }
});
afterAll(() => t.close());

/** The pages that have an API endpoint: every page of the authenticated layout or with an access rule. */
const guardedPages = PAGES.filter((p) => p.layout === 'authenticated' || p.access);
const expectedCodes = {
  'password-change-required': 'password_change_required',
  'contacts-unverified': 'contacts_unverified',
  'principal-document-unsigned': 'principal_document_unsigned',
  forbidden: 'forbidden',
} as const;

describe('GET /api/portal/pages/:pageId', () => {
  it('exists for /portale, every staff page and the formal adhesion', async () => {
    expect(guardedPages.map((p) => p.id)).toContain('portal.home');
    expect(guardedPages.map((p) => p.id)).toContain('adhesion');
    expect(guardedPages.filter((p) => p.path.startsWith('/portale')).length).toBe(
      PAGES.filter((p) => p.path.startsWith('/portale')).length,
    );
    const { client } = sessions.get('superadmin@demo.test')!;
    expect((await client.get('/api/portal/pages/contacts')).statusCode).toBe(404);
    expect((await client.get('/api/portal/pages/nope')).statusCode).toBe(404);
  });

  it.each(guardedPages.map((p) => p.id))('answers 401 without a token for %s', async (pageId) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/portal/pages/${pageId}`,
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      statusCode: 401,
      code: 'unauthenticated',
      message: ACCESS_MESSAGES.unauthenticated,
    });
  });

  it.each(DEMO_ACCOUNTS.map((a) => a.email))(
    'agrees with the shared access table for every page, for %s',
    async (email) => {
      const { client, user } = sessions.get(email)!;
      const mismatches: string[] = [];
      for (const page of guardedPages) {
        const decision = evaluateAccess(page, user);
        const res = await client.get(`/api/portal/pages/${page.id}`);
        const expected = decision.kind === 'allow' ? 200 : 403;
        if (res.statusCode !== expected)
          mismatches.push(`${page.id}: ${res.statusCode} instead of ${expected}`);
        if (decision.kind === 'allow') {
          expect(res.json()).toEqual({ id: page.id, title: page.title, description: page.description });
        } else if (decision.reason !== 'unauthenticated' && decision.reason !== 'already-authenticated') {
          expect(res.json()).toMatchObject({ statusCode: 403, code: expectedCodes[decision.reason] });
        }
      }
      expect(mismatches).toEqual([]);
    },
  );

  it('lets the super-admin open every staff page and a teacher none of them (personal pages aside)', async () => {
    const admin = sessions.get('superadmin@demo.test')!.client;
    const teacher = sessions.get('insegnante@demo.test')!.client;
    for (const page of guardedPages.filter((p) => p.path.startsWith('/portale/') && p.access)) {
      expect((await admin.get(`/api/portal/pages/${page.id}`)).statusCode, page.id).toBe(200);
      expect((await teacher.get(`/api/portal/pages/${page.id}`)).statusCode, page.id).toBe(403);
    }
    expect((await teacher.get('/api/portal/pages/portal.home')).statusCode).toBe(200);
    expect((await teacher.get('/api/portal/pages/portal.account')).statusCode).toBe(200);
  });

  it('grants the users list to the user.index permission without any role', async () => {
    const { client } = sessions.get('utenti@demo.test')!;
    expect((await client.get('/api/portal/pages/portal.users')).statusCode).toBe(200);
    expect((await client.get('/api/portal/pages/portal.adhesions-panel')).statusCode).toBe(200);
    expect((await client.get('/api/portal/pages/portal.reviews')).statusCode).toBe(200);
    expect((await client.get('/api/portal/pages/portal.institutes')).statusCode).toBe(403);
  });

  it('sends the principal without a signed adhesion to the adhesion page only', async () => {
    const { client } = sessions.get('dirigente-senza-firma@demo.test')!;
    const home = await client.get('/api/portal/pages/portal.home');
    expect(home.statusCode).toBe(403);
    expect(home.json()).toEqual({
      statusCode: 403,
      code: 'principal_document_unsigned',
      message: ACCESS_MESSAGES.principalDocumentUnsigned,
    });
    expect((await client.get('/api/portal/pages/adhesion')).statusCode).toBe(200);
  });

  it('refuses /portale to a user whose phone is not verified', async () => {
    const res = await sessions.get('da-verificare@demo.test')!.client.get('/api/portal/pages/portal.home');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'contacts_unverified',
      message: ACCESS_MESSAGES.contactsUnverified,
    });
  });
});

describe('user who must change the password', () => {
  it('gets 403 password_change_required on every portal page but 200 on /api/auth/me', async () => {
    const { client, user } = sessions.get('cambio-password@demo.test')!;
    expect(user.mustChangePassword).toBe(true);
    for (const page of guardedPages) {
      const res = await client.get(`/api/portal/pages/${page.id}`);
      expect(res.statusCode, page.id).toBe(403);
      expect(res.json()).toEqual({
        statusCode: 403,
        code: 'password_change_required',
        message: ACCESS_MESSAGES.passwordChangeRequired,
      });
    }
    expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(200);
    expect(getPage('portal.home').guards).toContain('update-password');
  });

  it('can still log out', async () => {
    const client = new ApiClient(t, nextIp());
    await client.login('cambio-password@demo.test');
    expect((await client.post(AUTH_PATHS.logout)).statusCode).toBe(200);
    expect((await client.get(AUTH_PATHS.me)).statusCode).toBe(401);
  });
});
