// `npm start`: builds the web app, then runs the API (migrates and seeds the embedded database on
// boot, prints the demo accounts) on :8000 and the web server on :3000. `--dev` uses hot reload.
import { spawn, spawnSync } from 'node:child_process';

const dev = process.argv.includes('--dev');
const apiPort = process.env.API_PORT ?? '8000';
const webPort = process.env.WEB_PORT ?? '3000';
const apiOrigin = process.env.API_ORIGIN ?? `http://localhost:${apiPort}`;
const children = [];

function run(name, command, args, env) {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[${name}] terminato (${signal ?? code}); arresto degli altri processi.`);
    stop(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

if (!dev) {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
run('api', 'npx', ['tsx', ...(dev ? ['watch'] : []), 'apps/api/src/server.ts'], { PORT: apiPort });
if (dev) run('web', 'npx', ['vite', 'apps/web', '--config', 'apps/web/vite.config.ts', '--port', webPort, '--strictPort'], { API_ORIGIN: apiOrigin });
else run('web', 'node', ['apps/web/server/serve.mjs'], { PORT: webPort, API_ORIGIN: apiOrigin, HOST: process.env.WEB_HOST ?? 'localhost' });
console.log(`\nPortale Scuole: web http://localhost:${webPort} · API ${apiOrigin}\n`);
