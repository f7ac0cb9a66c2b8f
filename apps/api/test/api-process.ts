import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const apiRoot = fileURLToPath(new URL('..', import.meta.url));
export const WEB_ORIGIN = 'http://127.0.0.1:3000';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed (pino JSON lines and plain lines). */
  output(): string;
  /** The pino log records printed so far. */
  logs(): Record<string, unknown>[];
  /** Milliseconds from spawn until GET /api/health/ready answered 200. */
  readyMs: number;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

/** The settings every process of these tests shares; `env` adds or overrides. */
export function apiEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED_REGISTRY: 'none',
    SEED_DEMO: 'true',
    MFA_ROLES: '',
    WEB_ORIGIN,
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_USER_MAX: '100000',
    OUTBOX_POLL_MS: '100',
    ...env,
  };
}

/** Spawns `node --import tsx src/server.ts` as `npm start` does and waits until it is ready. */
export async function startApi(
  env: Record<string, string>,
  { timeoutMs = 90_000 } = {},
): Promise<ApiProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiRoot,
    env: apiEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the API exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health/ready`, { headers: { connection: 'close' } });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the API was not ready in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const readyMs = performance.now() - started;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    child,
    readyMs,
    output: () => output,
    logs: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => {
          try {
            return JSON.parse(line) as Record<string, unknown>;
          } catch {
            return {};
          }
        }),
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/** A fresh PostgreSQL database on the DATABASE_URL server; `drop()` removes it. */
export async function freshDatabase(
  prefix: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const admin = process.env.DATABASE_URL!;
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const cleanup = new pg.Client({ connectionString: admin });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A browser-like client over fetch: a cookie jar, X-XSRF-TOKEN echoed, the bearer kept in memory. */
export class HttpClient {
  readonly jar = new Map<string, string>();
  token: string | undefined;

  constructor(public base: string) {}

  async send(
    method: string,
    path: string,
    body?: unknown,
    { bearer = true } = {},
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const headers: Record<string, string> = { origin: WEB_ORIGIN, connection: 'close' };
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const xsrf = this.jar.get('XSRF-TOKEN');
    if (method !== 'GET' && method !== 'HEAD' && xsrf) headers['x-xsrf-token'] = decodeURIComponent(xsrf);
    if (bearer && this.token) headers.authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = method === 'HEAD' ? '' : await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      json = { text };
    }
    return { status: res.status, json };
  }

  async login(email: string, password: string) {
    if (!this.jar.has('XSRF-TOKEN')) await this.send('HEAD', '/sanctum/csrf-cookie');
    const res = await this.send('POST', '/api/auth/login', { email, password });
    if (res.status === 200) this.token = res.json.token as string;
    return res;
  }

  async refresh() {
    const res = await this.send('POST', '/api/auth/refresh', undefined, { bearer: false });
    if (res.status === 200) this.token = res.json.token as string;
    return res;
  }
}
