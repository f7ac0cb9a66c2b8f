// After `vite build` (see docs/decisions/008-prerendered-home.md):
// 1. preloads the four Titillium Web faces (300 for lead paragraphs, 400, 600, 700), in index.html;
// 2. renders the home page with a server build of src/prerender.tsx into a copy of index.html,
//    inlines the CSS that page needs (beasties) and moves the full stylesheet to the end of the body,
//    so the first paint waits for nothing but the HTML and the fonts; the app's code is fetched only
//    after that paint (a small boot script). server/serve.mjs answers `/` with home.html.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { build } from 'vite';

const web = fileURLToPath(new URL('..', import.meta.url));
const dist = `${web}dist/`;
const kib = (bytes) => (bytes / 1024).toFixed(1);

const assets = readdirSync(`${dist}assets`);
const preloads = ['300', 'regular', '600', '700'].map((weight) => {
  const file = assets.find((name) => name.startsWith(`titillium-web-v10-latin-ext_latin-${weight}-`) && name.endsWith('.woff2'));
  if (!file) throw new Error(`post-build: Titillium Web ${weight} not found in dist/assets`);
  return `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>`;
});
const index = readFileSync(`${dist}index.html`, 'utf8').replace('</title>', () => `</title>\n    ${preloads.join('\n    ')}`);
writeFileSync(`${dist}index.html`, index);

const ssrOut = `${web}node_modules/.prerender`;
await build({
  root: web,
  configFile: `${web}vite.config.ts`,
  logLevel: 'warn',
  build: { ssr: 'src/prerender.tsx', outDir: ssrOut, emptyOutDir: true, manifest: false, copyPublicDir: false },
});
const { renderHome } = await import(pathToFileURL(`${ssrOut}/prerender.js`).href);
const markup = await renderHome();
rmSync(ssrOut, { recursive: true, force: true });
if (!markup.includes('<h1')) throw new Error('post-build: the prerendered home page has no h1');

// The app's entry and its preloads leave the head of the home page; the boot script asks for them
// once the page has been painted, and starts the app when the full stylesheet is in.
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(index);
if (!entry) throw new Error('post-build: no module entry in index.html');
const modulePreloads = [...index.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
const boot = `// Portale Scuole: starts the app after the first paint of the prerendered home page.
const modules = ${JSON.stringify([entry[1], ...modulePreloads.map((m) => m[1])])};
const sheet = document.querySelector('link[rel="stylesheet"]');
const styled = !sheet || sheet.sheet ? Promise.resolve() : new Promise((resolve) => {
  sheet.addEventListener('load', resolve, { once: true });
  sheet.addEventListener('error', resolve, { once: true });
});
requestAnimationFrame(() => setTimeout(() => {
  for (const href of modules) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
  styled.then(() => import(modules[0]));
}, 0));
`;
const bootFile = `assets/home-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
writeFileSync(`${dist}${bootFile}`, boot);
let page = index.replace('<div id="root"></div>', () => `<div id="root" data-prerendered="">${markup}</div>`);
for (const tag of [entry, ...modulePreloads]) page = page.replace(tag[0], '');
page = page.replace('</head>', () => `  <script type="module" src="/${bootFile}"></script>\n  </head>`);
const beasties = new Beasties({
  path: dist,
  publicPath: '/',
  // The stylesheet stays whole for the other pages; here it loads after the content (no inline
  // script: the CSP allows none); the boot script starts the app once it has loaded.
  preload: 'body',
  pruneSource: false,
  // The @font-face rules of the families in the critical CSS come inline, so the first paint
  // already uses Titillium Web (preloaded above; font-display: optional, so it never swaps later).
  inlineFonts: true,
  preloadFonts: false,
  logLevel: 'warn',
});
const home = await beasties.process(page);
if (!home.includes('<style') || !home.includes('Titillium Web')) throw new Error('post-build: the critical CSS lacks the page font');
writeFileSync(`${dist}home.html`, home);
const [homeBytes, pageBytes] = [home, page].map((html) => Buffer.byteLength(html));
console.log(`post-build: dist/home.html ${kib(homeBytes)} KiB (critical CSS ${kib(homeBytes - pageBytes)} KiB); ${preloads.length} fonts preloaded`);
