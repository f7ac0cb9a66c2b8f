import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PATHS } from '@portale/shared/http';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { ApiClient, nextIp } from './http-client.ts';
import { helmetHeaders } from '../src/plugins/security.ts';

const WEB = 'http://127.0.0.1:3000';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ WEB_ORIGIN: `${WEB},https://portale.example.it` });
});
afterAll(() => t.close());

describe('security headers', () => {
  it.each([
    ['GET', '/api/health'],
    ['GET', '/api/nope'],
    ['HEAD', AUTH_PATHS.csrf],
    ['GET', AUTH_PATHS.me],
  ] as const)('are set on %s %s', async (method, url) => {
    const res = await t.app.inject({ method, url, remoteAddress: nextIp() });
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers.server).toBeUndefined();
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    // Headers that act only on HTML documents or legacy browsers and plug-ins (decision 024).
    for (const name of [
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]) {
      expect(res.headers[name], name).toBeUndefined();
    }
    // The rate-limit counters are told only with a refusal.
    expect(Object.keys(res.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
  });

  it('are computed once, with helmet', () => {
    const headers = helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"] } },
      xXssProtection: false,
    });
    expect(headers['content-security-policy']).toBe("default-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-xss-protection']).toBeUndefined();
  });

  it('keep no-store on authenticated answers', async () => {
    const c = new ApiClient(t, nextIp());
    await c.login('superadmin@demo.test');
    const res = await c.get('/api/portal/pages/portal.users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('CORS', () => {
  it.each([WEB, 'https://portale.example.it'])(
    'echoes the allowed origin %s with credentials',
    async (origin) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin },
        remoteAddress: nextIp(),
      });
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers.vary).toMatch(/origin/i);
    },
  );

  it('answers the preflight of a credentialed POST from the web with the XSRF header allowed', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: AUTH_PATHS.login,
      headers: {
        origin: WEB,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-xsrf-token',
      },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(WEB);
    expect(res.headers['access-control-allow-headers']).toMatch(/x-xsrf-token/i);
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
  });

  it.each(['https://evil.example.com', 'http://127.0.0.1:3001', 'null', `${WEB}.evil.com`])(
    'does not allow the origin %s',
    async (origin) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { origin },
        remoteAddress: nextIp(),
      });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: AUTH_PATHS.login,
        headers: { origin, 'access-control-request-method': 'POST' },
        remoteAddress: nextIp(),
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    },
  );
});

describe('Fetch Metadata', () => {
  it('refuses a cross-site POST with 403 before anything else', async () => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    const res = await c.post(
      AUTH_PATHS.login,
      { email: 'superadmin@demo.test', password: 'Portale.Demo.2026' },
      {
        headers: { 'sec-fetch-site': 'cross-site' },
      },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ statusCode: 403, code: 'cross_site_request' });
  });

  it.each(['same-site', 'same-origin', 'none'])('accepts a POST with Sec-Fetch-Site %s', async (site) => {
    const c = new ApiClient(t, nextIp());
    await c.csrf();
    const res = await c.post(
      AUTH_PATHS.login,
      { email: 'superadmin@demo.test', password: 'Portale.Demo.2026' },
      {
        headers: { 'sec-fetch-site': site },
      },
    );
    expect(res.statusCode).toBe(200);
  });

  // Issue 32: the Origin of a write is checked, not only Sec-Fetch-Site (older browsers, proxies).
  it.each([
    ['POST', AUTH_PATHS.login],
    ['POST', AUTH_PATHS.logout],
    ['PATCH', '/api/account/profile'],
    ['PUT', '/api/nope'],
    ['DELETE', '/api/auth/sessions/1'],
  ] as const)(
    'refuses a %s %s from a foreign Origin with an Italian 403, whatever the XSRF pair',
    async (method, url) => {
      const c = new ApiClient(t, nextIp());
      await c.login('superadmin@demo.test');
      for (const origin of [
        'https://attaccante.example',
        'http://127.0.0.1:3001',
        'null',
        'https://portale.example.it.attaccante.example',
      ]) {
        const res = await c.send(method, url, { headers: { origin }, payload: {} });
        expect(res.statusCode, `${origin}`).toBe(403);
        expect(res.json(), origin).toMatchObject({
          statusCode: 403,
          code: 'cross_origin_request',
          message: 'Richiesta da un’origine non consentita rifiutata.',
        });
      }
    },
  );

  it('accepts writes from an allowed Origin, from the API’s own origin, and without Origin (non-browser clients with the XSRF pair)', async () => {
    const cases: Record<string, string>[] = [
      { origin: WEB },
      { origin: 'https://portale.example.it' },
      { origin: 'http://api.localhost:8000', host: 'api.localhost:8000' },
      {},
    ];
    for (const headers of cases) {
      const c = new ApiClient(t, nextIp());
      await c.csrf();
      const res = await c.post(
        AUTH_PATHS.login,
        { email: 'superadmin@demo.test', password: 'Portale.Demo.2026' },
        { headers },
      );
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
    }
    // Without the XSRF pair a write is still refused.
    const bare = await t.app.inject({
      method: 'POST',
      url: AUTH_PATHS.login,
      remoteAddress: nextIp(),
      payload: { email: 'superadmin@demo.test', password: 'Portale.Demo.2026' },
    });
    expect(bare.statusCode).toBe(419);
  });

  it('lets a cross-site GET through (safe method)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('global rate limit', () => {
  it('answers 429 with Retry-After past the per-IP limit, leaving other IPs alone', async () => {
    const limited = await buildTestApp({ RATE_LIMIT_MAX: '3' });
    try {
      const ip = nextIp();
      const codes: number[] = [];
      for (let i = 0; i < 4; i += 1)
        codes.push(
          (await limited.app.inject({ method: 'GET', url: AUTH_PATHS.me, remoteAddress: ip })).statusCode,
        );
      expect(codes).toEqual([401, 401, 401, 429]);
      const res = await limited.app.inject({ method: 'GET', url: AUTH_PATHS.me, remoteAddress: ip });
      expect(res.json()).toMatchObject({ statusCode: 429, code: 'rate_limited' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // The counters are told with the refusal (and only then).
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(
        (await limited.app.inject({ method: 'GET', url: AUTH_PATHS.me, remoteAddress: nextIp() })).statusCode,
      ).toBe(401);
      expect(
        (await limited.app.inject({ method: 'GET', url: '/api/health', remoteAddress: ip })).statusCode,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
