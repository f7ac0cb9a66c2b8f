import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { AUTH_COOKIES, AUTH_PATHS, HTTP_DEFAULTS } from '@portale/shared/http';
import { DEMO_PASSWORD } from '../src/seed/seed.ts';
import type { TestApp } from './build-test-app.ts';
import { authenticator } from './totp-helper.ts';

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface SendOptions {
  payload?: InjectOptions['payload'];
  headers?: Record<string, string>;
  /** Send X-XSRF-TOKEN from the jar on unsafe methods, as the web client does (default true). */
  xsrf?: boolean;
  /** Send the bearer token held by the client (default true). */
  bearer?: boolean;
}

const UNSAFE = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (cookiePath === '/' || requestPath === cookiePath) return true;
  return requestPath.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`);
}

/**
 * A browser-like client over `app.inject`: it keeps cookies with their path (a cookie is sent only
 * to the paths it belongs to), echoes XSRF-TOKEN in X-XSRF-TOKEN and keeps the bearer in memory.
 */
export class ApiClient {
  readonly jar = new Map<string, StoredCookie>();
  token: string | undefined;

  constructor(
    private readonly t: TestApp,
    readonly remoteAddress = '127.0.0.1',
  ) {}

  cookie(name: string): string | undefined {
    return [...this.jar.values()].find((c) => c.name === name)?.value;
  }

  /** Replaces every cookie called `name` with one value (as a test or an attacker would plant it). */
  setCookie(name: string, value: string, path = '/') {
    for (const [key, c] of this.jar) if (c.name === name) this.jar.delete(key);
    this.jar.set(`${name};${path}`, { name, value, path });
  }

  async send(method: Method, url: string, options: SendOptions = {}): Promise<LightMyRequestResponse> {
    const path = new URL(url, 'http://api.test').pathname;
    const cookies = Object.fromEntries(
      [...this.jar.values()].filter((c) => pathMatches(c.path, path)).map((c) => [c.name, c.value]),
    );
    const headers: Record<string, string> = { ...options.headers };
    const xsrf = this.cookie(HTTP_DEFAULTS.xsrfCookie);
    if (UNSAFE.has(method) && options.xsrf !== false && xsrf && !('x-xsrf-token' in headers))
      headers['x-xsrf-token'] = xsrf;
    if (this.token && options.bearer !== false && !('authorization' in headers))
      headers.authorization = `Bearer ${this.token}`;
    const res = await this.t.app.inject({
      method,
      url,
      headers,
      cookies,
      remoteAddress: this.remoteAddress,
      ...(options.payload === undefined ? {} : { payload: options.payload }),
    });
    for (const c of res.cookies as {
      name: string;
      value: string;
      path?: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const key = `${c.name};${c.path ?? '/'}`;
      const expired =
        c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now()) || c.value === '';
      if (expired) this.jar.delete(key);
      else this.jar.set(key, { name: c.name, value: c.value, path: c.path ?? '/' });
    }
    return res;
  }

  get(url: string, options?: SendOptions) {
    return this.send('GET', url, options);
  }

  post(url: string, payload?: unknown, options: SendOptions = {}) {
    return this.send('POST', url, {
      ...options,
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  }

  /** `HEAD /sanctum/csrf-cookie`, as the web does before login. */
  csrf() {
    return this.send('HEAD', AUTH_PATHS.csrf);
  }

  /**
   * CSRF cookie then login; keeps the bearer on success. Staff accounts answer with a second-factor
   * challenge, completed here with the demo TOTP secret (pass `secondFactor: false` to stop there).
   */
  async login(
    email: string,
    password = DEMO_PASSWORD,
    { secondFactor = true } = {},
  ): Promise<LightMyRequestResponse> {
    if (!this.cookie(HTTP_DEFAULTS.xsrfCookie)) await this.csrf();
    let res = await this.post(AUTH_PATHS.login, { email, password });
    const body =
      res.statusCode === 200
        ? res.json<{ token?: string; mfa_required?: boolean; mfa_token?: string }>()
        : {};
    if (body.mfa_required && body.mfa_token && secondFactor) {
      // A TOTP code is single use: move one 30-second step so repeated staff logins get fresh codes.
      this.t.clock.advance(30_000);
      const code = await authenticator(this.t.clock.now());
      res = await this.post('/api/auth/mfa/verify', { mfa_token: body.mfa_token, code });
    }
    if (res.statusCode === 200) this.token = res.json<{ token?: string }>().token;
    return res;
  }

  async refresh(): Promise<LightMyRequestResponse> {
    const res = await this.post(AUTH_PATHS.refresh, undefined, { bearer: false });
    if (res.statusCode === 200) this.token = res.json<{ token: string }>().token;
    return res;
  }

  refreshCookie(): string | undefined {
    return this.cookie(AUTH_COOKIES.refreshToken);
  }
}

/** A raw Set-Cookie header line for `name`, to check its attributes. */
export function setCookieLine(res: LightMyRequestResponse, name: string): string | undefined {
  const header = res.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  return lines.find((line) => line.startsWith(`${name}=`));
}

let ipCounter = 0;
/** A fresh client IP per test, so that per-IP limits of one test never leak into another. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.0.${Math.floor(ipCounter / 250)}.${1 + (ipCounter % 250)}`;
}

/** A signed-out client from a fresh IP that already holds its XSRF pair. */
export async function guestClient(t: TestApp): Promise<ApiClient> {
  const client = new ApiClient(t, nextIp());
  await client.csrf();
  return client;
}
