// After `vite build` (see docs/decisions/008-prerendered-home.md):
// 1. preloads the four Titillium Web faces (300 for lead paragraphs, 400, 600, 700), in index.html;
// 2. renders every public route of the route table that a guest sees the same before any API answer
//    (scripts/public-routes.mjs: layout 'default', no URL params, only the 'unauth' guard; the page's
//    module from the router's PAGE_MODULES) with a server build of src/prerender.tsx, each into a copy
//    of index.html; inlines the CSS that page needs (beasties) and moves the full stylesheet to the end
//    of the body, so the first paint waits for nothing but the HTML and the fonts. The app's code is
//    fetched only after that paint (a small boot script). Forms stay inert until the app has taken over.
//    dist/prerendered.json maps each path to its file; server/serve.mjs answers those paths with them.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { build } from 'vite';
import { pageModules, publicRoutes } from './public-routes.mjs';

const web = fileURLToPath(new URL('..', import.meta.url));
const dist = `${web}dist/`;
const kib = (bytes) => (bytes / 1024).toFixed(1);

const assets = readdirSync(`${dist}assets`);
const preloads = ['300', 'regular', '600', '700'].map((weight) => {
  const file = assets.find(
    (name) => name.startsWith(`titillium-web-v10-latin-ext_latin-${weight}-`) && name.endsWith('.woff2'),
  );
  if (!file) throw new Error(`post-build: Titillium Web ${weight} not found in dist/assets`);
  return `<link rel="preload" href="/assets/${file}" as="font" type="font/woff2" crossorigin>`;
});
const index = readFileSync(`${dist}index.html`, 'utf8').replace(
  '</title>',
  () => `</title>\n    ${preloads.join('\n    ')}`,
);
writeFileSync(`${dist}index.html`, index);

// The server build's entry: the renderer and the module of every public page, as the router loads them.
const routes = await publicRoutes();
const { modules, fallback } = pageModules();
const moduleOf = (id) => `${web}${modules.get(id) ?? fallback}`;
const ENTRY = '\0portale-prerender-entry';
const entryCode = [
  `export { renderPage, notPrerenderable } from ${JSON.stringify(`${web}src/prerender.tsx`)};`,
  ...routes.map((r, i) => `import * as page${i} from ${JSON.stringify(moduleOf(r.id))};`),
  `export const pages = [${routes.map((r, i) => `[${JSON.stringify(r.id)}, page${i}]`).join(', ')}];`,
].join('\n');
const ssrOut = `${web}node_modules/.prerender`;
await build({
  root: web,
  configFile: `${web}vite.config.ts`,
  logLevel: 'warn',
  plugins: [
    {
      name: 'portale-prerender-entry',
      resolveId: (id) => (id.endsWith('portale-prerender-entry') ? ENTRY : undefined),
      load: (id) => (id === ENTRY ? entryCode : undefined),
    },
  ],
  build: {
    ssr: 'portale-prerender-entry',
    outDir: ssrOut,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    rolldownOptions: { output: { entryFileNames: 'prerender.js' } },
  },
});
const prerender = await import(pathToFileURL(`${ssrOut}/prerender.js`).href);
// The static server sends the variant with the cookie banner by the rule the app itself applies to the
// consent cookies (src/features/consent/consent-cookies.ts), built for Node into dist/server/.
await build({
  root: web,
  configFile: `${web}vite.config.ts`,
  logLevel: 'warn',
  build: {
    ssr: `${web}src/features/consent/consent-cookies.ts`,
    outDir: `${dist}server`,
    emptyOutDir: true,
    manifest: false,
    copyPublicDir: false,
    rolldownOptions: { output: { entryFileNames: 'consent-cookies.js', codeSplitting: false } },
  },
});
rmSync(`${dist}server/build.json`);
const rendered = [];
const skipped = [];
for (const [id, module] of prerender.pages) {
  const path = routes.find((r) => r.id === id).path;
  const reason = prerender.notPrerenderable(module);
  if (reason) {
    skipped.push(`${path} (${reason})`);
    continue;
  }
  try {
    // Two variants: for a visitor who has chosen about cookies, and with the banner of a first visit.
    const page = await prerender.renderPage(id, module);
    const withBanner = await prerender.renderPage(id, module, { consentBanner: true });
    if (!withBanner.markup.includes('data-testid="consent-banner"'))
      throw new Error(`post-build: no cookie banner in the first-visit variant of ${path}`);
    rendered.push({ id, path, ...page, markupWithBanner: withBanner.markup });
  } catch (error) {
    skipped.push(`${path} (needs the browser to render: ${error.message})`);
  }
}
rmSync(ssrOut, { recursive: true, force: true });
for (const { path, markup } of rendered)
  if (!markup.includes('<h1')) throw new Error(`post-build: the prerendered page ${path} has no h1`);

// The app's entry and its preloads leave the head of a prerendered page; the boot script asks for them
// once the page has been painted, and starts the app when the full stylesheet is in.
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(index);
if (!entry) throw new Error('post-build: no module entry in index.html');
const modulePreloads = [...index.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g)];
const boot = `// Portale Scuole: starts the app after the first paint of a prerendered page.
const modules = ${JSON.stringify([entry[1], ...modulePreloads.map((m) => m[1])])};
const sheet = document.querySelector('link[rel="stylesheet"]');
const styled = !sheet || sheet.sheet ? Promise.resolve() : new Promise((resolve) => {
  sheet.addEventListener('load', resolve, { once: true });
  sheet.addEventListener('error', resolve, { once: true });
});
// "After the first paint" is the paint the browser reports as presented (Paint Timing), not the next
// animation frame: a frame can be drawn long after its callbacks ran, and the app's code fetched in
// between would compete with that paint. A browser without Paint Timing starts after the next frame.
const painted = new Promise((resolve) => {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) return requestAnimationFrame(() => setTimeout(resolve, 0));
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    resolve();
  });
  observer.observe({ type: 'paint', buffered: true });
});
painted.then(() => {
  for (const href of modules) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
  styled.then(() => import(modules[0]));
});
`;
const bootFile = `assets/prerender-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 10)}.js`;
writeFileSync(`${dist}${bootFile}`, boot);
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
const escapeHtml = (value) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
const manifest = {};
mkdirSync(`${dist}prerendered`, { recursive: true });
const sizes = [];
// A form typed into before the app takes over would lose its input (the app replaces the markup),
// and would post to the static server; the cookie banner's buttons need the app to store a choice.
// Until then both are inert and their controls disabled (shown as such, and automation waits for them
// to be enabled, i.e. for the app's own form and banner).
const inert = (markup) =>
  markup.replace(
    /<form(?=[\s>])[\s\S]*?<\/form>|<section class="consent-banner[\s\S]*?<\/section>/g,
    (part) =>
      part
        .replace(/^<(form|section)/, '<$1 inert=""')
        .replace(/<(input|select|textarea|button)(?=[\s>/])/g, '<$1 disabled=""'),
  );
const variants = rendered.flatMap(({ path, markup, markupWithBanner, ...head }) => [
  { path, markup, ...head, withBanner: false },
  { path, markup: markupWithBanner, ...head, withBanner: true },
]);
for (const { path, markup, title, description, withBanner } of variants) {
  let page = index.replace(
    '<div id="root"></div>',
    () => `<div id="root" data-prerendered="">${inert(markup)}</div>`,
  );
  // The footer keeps room above the banner (styles/app.css); the app sets the same class when it shows it.
  if (withBanner) page = page.replace('<body>', '<body class="has-consent-banner">');
  for (const tag of [entry, ...modulePreloads]) page = page.replace(tag[0], '');
  page = page.replace('</head>', () => `  <script type="module" src="/${bootFile}"></script>\n  </head>`);
  page = page
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /(<meta name="description" content=")[^"]*"/,
      (_, start) => `${start}${escapeHtml(description)}"`,
    );
  const html = await beasties.process(page);
  if (!html.includes('<style') || !html.includes('Titillium Web'))
    throw new Error(`post-build: the critical CSS of ${path} lacks the page font`);
  const file = `prerendered/${path === '/' ? 'index' : path.slice(1).replaceAll('/', '--')}${withBanner ? '.consent-banner' : ''}.html`;
  writeFileSync(`${dist}${file}`, html);
  manifest[path] = { ...manifest[path], [withBanner ? 'withConsentBanner' : 'page']: file };
  if (!withBanner)
    sizes.push(
      `${path} ${kib(Buffer.byteLength(html))} (CSS ${kib(Buffer.byteLength(html) - Buffer.byteLength(page))})`,
    );
}
writeFileSync(`${dist}prerendered.json`, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `post-build: ${rendered.length} pages prerendered (each also with the cookie banner of a first visit), KiB: ${sizes.join(', ')}; ${preloads.length} fonts preloaded`,
);
if (skipped.length) console.log(`post-build: not prerendered: ${skipped.join('; ')}`);
