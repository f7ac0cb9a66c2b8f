import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports.ts';

/**
 * A second API with its own configuration (e.g. MFA on, SPID configured), on an in-memory database,
 * and a web server for it: for the specs whose subject the shared e2e API (playwright.config.ts) is
 * configured without. Started once per spec (in `beforeAll`), stopped with `stop()` (in `afterAll`).
 */
export interface OwnApi {
  apiOrigin: string;
  webOrigin: string;
  stop(): void;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Waits until `url` answers 2xx, polling every 250 ms. */
export async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (
      await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in time`);
}

/** The web server of the run's web build (its private copy, E2E_WEB_ROOT, or `webRoot`) on `port`, for `apiOrigin`. */
function spawnWeb(
  port: number,
  apiOrigin: string,
  env: Record<string, string>,
  webRoot = process.env.E2E_WEB_ROOT ?? `${repoRoot}apps/web`,
): ChildProcess {
  return spawn(process.execPath, [`${webRoot}/server/serve.mjs`], {
    cwd: repoRoot,
    stdio: 'ignore',
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      API_ORIGIN: apiOrigin,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
}

/**
 * A web server of its own for the shared e2e API, with `env` (e.g. GA_MEASUREMENT_ID): for a spec about
 * the web server's configuration. Its origin is not the shared API's WEB_ORIGIN: only for pages that
 * need no session.
 */
export async function startOwnWeb(options: { env: Record<string, string>; timeoutMs?: number }): Promise<{
  webOrigin: string;
  stop(): void;
}> {
  const port = await freePort();
  const web = spawnWeb(port, `http://localhost:${process.env.E2E_API_PORT}`, options.env);
  const stop = () => void web.kill('SIGTERM');
  try {
    await waitFor(`http://127.0.0.1:${port}/build.json`, options.timeoutMs ?? 30_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { webOrigin: `http://localhost:${port}`, stop };
}

/**
 * A web server for the shared e2e API on the run's spare origin (E2E_SPARE_WEB_PORT, which the shared
 * API's WEB_ORIGIN admits, so sessions work) serving a copy of the web build of its own: for a spec
 * that changes the files it serves (e.g. a new service worker) without touching the other specs' build.
 * `stop()` stops it and removes the copy.
 */
export async function startWebCopy(options: { timeoutMs?: number } = {}): Promise<{
  webOrigin: string;
  /** The copy's `dist` directory, which the server reads on every request for a file. */
  dist: string;
  stop(): void;
}> {
  const port = Number(process.env.E2E_SPARE_WEB_PORT);
  const source = process.env.E2E_WEB_ROOT ?? `${repoRoot}apps/web`;
  // Inside the repository, so the server resolves its packages from the root node_modules.
  const copy = `${repoRoot}e2e/.cache/copy-${process.pid}`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(`${source}/dist`, `${copy}/dist`, { recursive: true });
  cpSync(`${source}/server/serve.mjs`, `${copy}/server/serve.mjs`);
  const web = spawnWeb(port, `http://localhost:${process.env.E2E_API_PORT}`, {}, copy);
  const stop = () => {
    web.kill('SIGTERM');
    rmSync(copy, { recursive: true, force: true });
  };
  try {
    await waitFor(`http://127.0.0.1:${port}/build.json`, options.timeoutMs ?? 30_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { webOrigin: `http://localhost:${port}`, dist: `${copy}/dist`, stop };
}

/**
 * Starts an API and a web server on two free ports. `name` names the mail and SMS folders
 * (var/e2e/<name>-mail, -sms); `env(origins)` gives the API's own settings, which may name its origins.
 * A machine shared with other runs may take minutes to start a second API (migrations on PGlite):
 * `timeoutMs` is a budget against hangs.
 */
export async function startOwnApi(options: {
  name: string;
  env?: (origins: {
    apiOrigin: string;
    webOrigin: string;
  }) => Record<string, string> | Promise<Record<string, string>>;
  timeoutMs?: number;
}): Promise<OwnApi> {
  const [apiPort, webPort] = [await freePort(), await freePort()];
  const apiOrigin = `http://localhost:${apiPort}`;
  const webOrigin = `http://localhost:${webPort}`;
  const ownEnv = (await options.env?.({ apiOrigin, webOrigin })) ?? {};
  const children: ChildProcess[] = [];
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
  };
  children.push(
    spawn(`${repoRoot}node_modules/.bin/tsx`, ['apps/api/src/server.ts'], {
      cwd: repoRoot,
      stdio: 'ignore',
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(apiPort),
        PGLITE_DIR: 'memory://',
        SEED_REGISTRY: 'none',
        WEB_ORIGIN: webOrigin,
        LOG_LEVEL: 'warn',
        MAIL_DIR: `${repoRoot}var/e2e/${options.name}-mail`,
        SMS_DIR: `${repoRoot}var/e2e/${options.name}-sms`,
        ...ownEnv,
      },
    }),
  );
  const web = spawnWeb(webPort, apiOrigin, {});
  children.push(web);
  try {
    const timeoutMs = options.timeoutMs ?? 240_000;
    await waitFor(`http://127.0.0.1:${apiPort}/api/health`, timeoutMs);
    await waitFor(`http://127.0.0.1:${webPort}/build.json`, timeoutMs);
  } catch (error) {
    stop();
    throw error;
  }
  return { apiOrigin, webOrigin, stop };
}
