// Prints the gzip and brotli sizes of the built web app (apps/web/dist, from `npm run build`):
// the JS a first visit to each public route of the route table downloads (entry + the page chunk and
// its static imports), the whole app, and the CSS; and whether a public route loads heavy code (portal,
// password policy, map, charts) before it renders. Budget of issue 3: JS for `/` ≤ 170 KB gzip. A script that prints, not a test.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { pageModules, publicRoutes } from '../apps/web/scripts/public-routes.mjs';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const cache = new Map();
function sizes(file) {
  if (!cache.has(file)) {
    const bytes = readFileSync(join(dist, file));
    cache.set(file, {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes).length,
    });
  }
  return cache.get(file);
}
/** Files of a manifest entry and of its static imports (what loads before the page can render). */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}
const total = (files) =>
  [...files].reduce(
    (acc, f) => {
      const s = sizes(f);
      return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli };
    },
    { raw: 0, gzip: 0, brotli: 0 },
  );
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);

const entry = closure('index.html');
// Every public route of the route table, with the module that renders it (apps/web/scripts/public-routes.mjs).
const { modules, fallback } = pageModules();
const pages = Object.fromEntries(
  (await publicRoutes()).map(({ id, path }) => [path, modules.get(id) ?? fallback]),
);
const missing = Object.entries(pages).filter(([, key]) => !manifest[key]);
if (missing.length)
  throw new Error(
    `not in the build manifest: ${missing.map(([path, key]) => `${path} (${key})`).join(', ')}`,
  );

/**
 * What no public page may load before it renders: portal code, the password policy's dictionaries, the
 * map (each by the source of its lazily loaded module), and any chunk over 50 KiB gzip besides the
 * entry's own (zxcvbn's dictionaries, MapLibre, charts, …).
 */
const HEAVY = [
  ['portal code', (key) => key.startsWith('src/features/portal/')],
  ['password policy (zxcvbn)', (key) => key.endsWith('shared/src/accounts/password.ts')],
  ['map', (key) => key.startsWith('src/features/map/')],
];
const BIG_CHUNK = 50 * 1024;
/** Manifest keys of a chunk and of its static imports. */
function keysOf(key, seen = new Set()) {
  if (!manifest[key] || seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) keysOf(dep, seen);
  return seen;
}

// files: how many requests that JS takes (a phone on HTTP/1.1 makes six at a time).
console.log(
  `${'Initial JS per route'.padEnd(36)}${'raw'.padStart(10)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}${'files'.padStart(7)}`,
);
const line = (label, t, files) =>
  console.log(
    `${label.padEnd(36)}${kb(t.raw)}${kb(t.gzip)}${kb(t.brotli)}${files ? String(files.size).padStart(7) : ''}`,
  );
line('entry (every page)', total(entry), entry);
const heavyLoads = [];
for (const [route, key] of Object.entries(pages)) {
  const files = closure(key, new Set(entry));
  line(route, total(files), files);
  const keys = [...keysOf('index.html'), ...keysOf(key)];
  for (const [what, test] of HEAVY) if (keys.some(test)) heavyLoads.push(`${route}: ${what}`);
  const big = keys.map((k) => manifest[k].file).filter((f) => !entry.has(f) && sizes(f).gzip > BIG_CHUNK);
  for (const file of new Set(big))
    heavyLoads.push(`${route}: ${file} (${(sizes(file).gzip / 1024).toFixed(1)} KiB gzip)`);
}
const assets = readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);
line('whole app, all JS', total(assets.filter((f) => f.endsWith('.js'))));
line('all CSS', total(assets.filter((f) => f.endsWith('.css'))));
const home = total(closure(pages['/'], new Set(entry))).gzip;
console.log(
  `\nBudget: JS for / ${(home / 1000).toFixed(1)} KB gzip of 170 KB → ${home <= 170_000 ? 'within' : 'OVER'} budget`,
);
console.log(
  `Heavy code loaded up front by a public route: ${heavyLoads.length ? heavyLoads.join('; ') : 'none'}`,
);
