// Prints the gzip and brotli sizes of the built web app (apps/web/dist, from `npm run build`):
// the JS a first visit to each public page downloads (entry + the page chunk and its static imports),
// the whole app, and the CSS. Budget of issue 3: JS for `/` ≤ 170 KB gzip. A script that prints, not a test.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const cache = new Map();
function sizes(file) {
  if (!cache.has(file)) {
    const bytes = readFileSync(join(dist, file));
    cache.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: brotliCompressSync(bytes).length });
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
const total = (files) => [...files].reduce((acc, f) => { const s = sizes(f); return { raw: acc.raw + s.raw, gzip: acc.gzip + s.gzip, brotli: acc.brotli + s.brotli }; }, { raw: 0, gzip: 0, brotli: 0 });
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(10);

const entry = closure('index.html');
const pages = {
  '/': 'src/features/public/home-page.tsx',
  '/contatti': 'src/features/public/contacts-page.tsx',
  '/documentazione': 'src/features/public/documentation-page.tsx',
  '/policy/cookie': 'src/features/public/cookie-policy-page.tsx',
  '/landing/edu': 'src/features/public/landing-page.tsx',
  '/landing/registrazioni/insegnante': 'src/app/registration-landing-page.tsx',
  '/auth/reset-password': 'src/features/accounts/reset-password-page.tsx',
  '/privacy': 'src/features/public/legal-page.tsx',
  '/auth/login': 'src/features/auth/login-page.tsx',
};
console.log(`${'Initial JS per route'.padEnd(36)}${'raw'.padStart(10)}${'gzip'.padStart(10)}${'brotli'.padStart(10)}`);
const line = (label, t) => console.log(`${label.padEnd(36)}${kb(t.raw)}${kb(t.gzip)}${kb(t.brotli)}`);
line('entry (every page)', total(entry));
for (const [route, key] of Object.entries(pages)) {
  if (!manifest[key]) continue;
  line(route, total(closure(key, new Set(entry))));
}
const assets = readdirSync(join(dist, 'assets')).map((f) => `assets/${f}`);
line('whole app, all JS', total(assets.filter((f) => f.endsWith('.js'))));
line('all CSS', total(assets.filter((f) => f.endsWith('.css'))));
const home = total(closure(pages['/'], new Set(entry))).gzip;
const portalInHome = [...closure(pages['/'], new Set(entry))].filter((f) => /portal/.test(f));
console.log(`\nBudget: JS for / ${(home / 1000).toFixed(1)} KB gzip of 170 KB → ${home <= 170_000 ? 'within' : 'OVER'} budget`);
console.log(`Portal chunks loaded by /: ${portalInHome.length ? portalInHome.join(', ') : 'none'}`);
