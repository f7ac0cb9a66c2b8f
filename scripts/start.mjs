// `npm start`: builds the web app, then runs the API (migrates and seeds the embedded database on
// boot, prints the demo accounts) on :8000 and the web server on :3000. `--dev` uses hot reload.
// Ports and origins are chosen once here and handed to both sides: the API allows the web origin
// (WEB_ORIGIN, CORS with credentials) and the web calls the API origin (API_ORIGIN). The URLs are
// announced only once both servers answer.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { buildWebOnce } from './lib/web-build.mjs';

const dev = process.argv.includes('--dev');
const portOf = (origin) => {
  try {
    return new URL(origin).port || undefined;
  } catch {
    return undefined;
  }
};
const firstOrigin = (list) => list?.split(',')[0]?.trim() || undefined;
const apiPort = process.env.API_PORT ?? portOf(process.env.API_ORIGIN) ?? '8000';
const webPort = process.env.WEB_PORT ?? portOf(firstOrigin(process.env.WEB_ORIGIN)) ?? '3000';
const apiOrigin = process.env.API_ORIGIN ?? `http://localhost:${apiPort}`;
const webOrigin = process.env.WEB_ORIGIN ?? `http://localhost:${webPort}`;
// Polled locally, whatever public origins a proxy may put in front.
const apiHealth = `http://localhost:${apiPort}/api/health`;
const webHome = `http://localhost:${webPort}/`;
const children = [];
// The tools' own binaries, not `npx`: npm exits on SIGTERM without passing it on, which left the
// servers running when only this script was stopped.
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

function run(name, command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[${name}] terminato (${signal ?? code}); arresto degli altri processi.`);
    stop(code || 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  // Give the servers time to close the database cleanly, then leave.
  const exit = () => process.exit(code);
  let pending = children.filter((c) => c.exitCode === null && c.signalCode === null).length;
  if (pending === 0) exit();
  for (const child of children) child.once('exit', () => --pending === 0 && exit());
  setTimeout(exit, 12_000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

// One connection per poll (`agent: false`, Connection: close): an idle keep-alive socket held here
// would delay the servers' shutdown.
const answers = (url) =>
  new Promise((resolve) => {
    const request = get(url, { agent: false, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode >= 200 && response.statusCode < 300);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });

async function announceWhenReady(started) {
  const ready = { api: false, web: false };
  while (!stopping) {
    ready.api ||= await answers(apiHealth);
    ready.web ||= await answers(webHome);
    if (ready.api && ready.web) {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(
        `\nPortale Scuole: web ${webOrigin.split(',')[0]} · API ${apiOrigin}  (pronto in ${seconds} s)\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * In development, with no CIE or SPID configured, local test providers (fictitious people to choose
 * from, decisions 048 and 052) so that a newcomer can try the login with CIE and SPID; their settings
 * come back on one line of their output. `IDENTITY_TEST_PROVIDERS=off` leaves them out.
 */
async function testIdentityProviders() {
  const configured = process.env.CIE_ISSUER || process.env.SPID_IDP_METADATA;
  if (process.env.NODE_ENV === 'production' || configured || process.env.IDENTITY_TEST_PROVIDERS === 'off')
    return {};
  const child = spawn(
    bin('tsx'),
    ['apps/api/test/support/dev-identity-providers.ts', apiOrigin, webOrigin.split(',')[0]],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  let buffered = '';
  const env = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      const line = buffered.split('\n').find((l) => l.startsWith('DEV_IDENTITY_ENV '));
      if (line) resolve(JSON.parse(line.slice('DEV_IDENTITY_ENV '.length)));
    });
    child.once('exit', () => resolve(null));
    setTimeout(() => resolve(null), 60_000).unref();
  });
  if (!env) {
    child.kill('SIGTERM');
    console.error('Provider di prova SPID/CIE non avviati: si continua senza.');
    return {};
  }
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`[provider di prova] terminati (${signal ?? code}).`);
  });
  console.log('Accesso con SPID e CIE: provider di prova locali, con persone fittizie (solo sviluppo).');
  return env;
}

const started = Date.now();
if (!dev) {
  console.log('Compilazione della web app…');
  const status = buildWebOnce();
  if (status !== 0) process.exit(status);
}
console.log(
  `Avvio di API (porta ${apiPort}) e web (porta ${webPort}); al primo avvio l'API carica l'anagrafe nazionale delle scuole…`,
);
const identityEnv = await testIdentityProviders();
run('api', bin('tsx'), [...(dev ? ['watch'] : []), 'apps/api/src/server.ts'], {
  ...identityEnv,
  PORT: apiPort,
  WEB_ORIGIN: webOrigin,
});
if (dev)
  run(
    'web',
    bin('vite'),
    ['apps/web', '--config', 'apps/web/vite.config.ts', '--port', webPort, '--strictPort'],
    { API_ORIGIN: apiOrigin },
  );
else
  run('web', 'node', ['apps/web/server/serve.mjs'], {
    PORT: webPort,
    API_ORIGIN: apiOrigin,
    HOST: process.env.WEB_HOST ?? 'localhost',
  });
await announceWhenReady(started);
