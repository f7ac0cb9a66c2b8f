// `npm start`: builds the web app, then runs the API (migrates and seeds the embedded database on
// boot, prints the demo accounts) on :8000 and the web server on :3000. `--dev` uses hot reload.
// Ports and origins are chosen once here and handed to both sides: the API allows the web origin
// (WEB_ORIGIN, CORS with credentials) and the web calls the API origin (API_ORIGIN). The URLs are
// announced only once both servers answer.
import { spawn } from 'node:child_process';
import { get } from 'node:http';
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

const started = Date.now();
if (!dev) {
  console.log('Compilazione della web app…');
  const status = buildWebOnce();
  if (status !== 0) process.exit(status);
}
console.log(
  `Avvio di API (porta ${apiPort}) e web (porta ${webPort}); al primo avvio l'API carica l'anagrafe nazionale delle scuole…`,
);
run('api', 'npx', ['tsx', ...(dev ? ['watch'] : []), 'apps/api/src/server.ts'], {
  PORT: apiPort,
  WEB_ORIGIN: webOrigin,
});
if (dev)
  run(
    'web',
    'npx',
    ['vite', 'apps/web', '--config', 'apps/web/vite.config.ts', '--port', webPort, '--strictPort'],
    { API_ORIGIN: apiOrigin },
  );
else
  run('web', 'node', ['apps/web/server/serve.mjs'], {
    PORT: webPort,
    API_ORIGIN: apiOrigin,
    HOST: process.env.WEB_HOST ?? 'localhost',
  });
await announceWhenReady(started);
