import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin as PostcssPlugin } from 'postcss';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { DETECTOR_API_PATTERN } from './src/features/field-work/offline/cached-api.ts';
import { DETECTOR_DATA_CACHE } from './src/lib/detector-data-cache.ts';

const buildId = process.env.PORTALE_BUILD_ID ?? `${Date.now().toString(36)}`;

/** Publishes the build id as /build.json, polled by the app to detect a new build. */
function buildManifest(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portale-build-manifest',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle() {
      writeFileSync(join(outDir, 'build.json'), JSON.stringify({ id: buildId, timestamp: Date.now() }));
    },
  };
}

/** In development the API origin comes from the environment, as the static server does in production. */
function devApiOrigin(): Plugin {
  return {
    name: 'portale-dev-api-origin',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace('%PORTALE_API_ORIGIN%', process.env.API_ORIGIN ?? 'http://localhost:8000')
        .replace('%PORTALE_GA_ID%', process.env.GA_MEASUREMENT_ID ?? ''),
  };
}

/**
 * Zod compiles object parsers with `new Function` when it may. Our CSP has no 'unsafe-eval', so in the
 * browser that probe is a CSP violation (reported by the browser and Lighthouse). Zod reads its global
 * config when each schema is created, at module load in whatever chunk, so the flag is set where zod
 * creates that config. The API keeps the JIT.
 */
function zodJitless(): Plugin {
  const from = '(_a.__zod_globalConfig = {})';
  return {
    name: 'portale-zod-jitless',
    transform(code, id) {
      if (!/[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return undefined;
      if (!code.includes(from)) this.error('zod core changed: cannot turn its JIT off (see vite.config.ts)');
      return code.replace(from, '(_a.__zod_globalConfig = { jitless: true })');
    },
  };
}

/**
 * Every font stack that names Titillium Web — ours and bootstrap-italia's, in `font-family` and in
 * custom properties such as `--bs-font-sans-serif` — gets 'Titillium Web Fallback' right after it: the
 * system sans scaled to Titillium Web's metrics (src/styles/fonts.css), so nothing moves when the web
 * font arrives. The @font-face rules themselves are left as they are.
 */
const TITILLIUM_FALLBACK = 'Titillium Web Fallback';
function titilliumFallback(): PostcssPlugin {
  return {
    postcssPlugin: 'portale-titillium-fallback',
    Declaration(decl) {
      if (decl.prop !== 'font-family' && decl.prop !== 'font' && !decl.prop.startsWith('--')) return;
      if (decl.parent?.type === 'atrule' && (decl.parent as { name?: string }).name === 'font-face') return;
      if (decl.value.includes(TITILLIUM_FALLBACK)) return;
      decl.value = decl.value.replace(
        /(["']?)Titillium Web\1(?=\s*,)/,
        (face) => `${face},"${TITILLIUM_FALLBACK}"`,
      );
    },
  };
}

/**
 * What every page runs before it renders — React, the router, zod, the HTTP client, the shared contracts
 * and src/lib — in one chunk beside the entry, instead of a dozen small chunks that the automatic
 * splitting makes because page chunks share them: a phone on HTTP/1.1 (six connections) fetched them in
 * three rounds, with the stylesheet and the preloaded fonts. Only modules the entry imports statically
 * ('$initial') are captured, so nothing is loaded earlier than before. Components stay out of the group:
 * design-react-kit's index re-exports every component, and capturing them would pull the whole kit in.
 */
const INITIAL_CHUNK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|zod|ofetch|ufo|destr|libphonenumber-js)[\\/]|packages[\\/]shared[\\/]|src[\\/]lib[\\/]/;

/**
 * The installable app (issue 39, decision 051): the web app manifest for everyone (a link, no JS), and
 * a service worker that only the detector's session registers (features/field-work/offline/), so no
 * public page loads anything more. The worker precaches the app shell and answers the portal's
 * navigations with it, and keeps the detector's page data (network first). It never touches IndexedDB,
 * where the drafts live; a new version waits until the detector accepts the update (`prompt`).
 */
function installableApp() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    includeManifestIcons: false,
    manifest: {
      name: 'Portale Scuole',
      short_name: 'Portale Scuole',
      description: 'Il portale del programma nazionale di indagine nelle scuole italiane.',
      lang: 'it',
      start_url: '/portale/istituti/rilevatori/plessi',
      scope: '/',
      display: 'standalone',
      theme_color: '#0066cc',
      background_color: '#ffffff',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // The app's code, styles and fonts; the shell (index.html, served with its configuration and CSP
      // by server/serve.mjs) is added under the build's id, since post-build rewrites it after this step.
      globPatterns: ['assets/**/*.{js,css,woff2}', 'icons/*.png', 'favicon.svg'],
      // Staff's map and charts and the password policy's dictionaries are not on a detector's pages.
      globIgnores: [
        'assets/school-map-*',
        'assets/maplibre-*',
        'assets/installSVGRenderer-*',
        'assets/password-*',
        'assets/*chart*',
      ],
      additionalManifestEntries: [{ url: '/index.html', revision: buildId }],
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      navigateFallback: '/index.html',
      navigateFallbackAllowlist: [/^\/portale(?:\/|$)/],
      cleanupOutdatedCaches: true,
      // The first install takes the open page at once (nothing older to replace), so the pages the
      // detector opens next are kept; a later version waits for the detector's "Aggiorna".
      clientsClaim: true,
      skipWaiting: false,
      runtimeCaching: [
        {
          urlPattern: DETECTOR_API_PATTERN,
          method: 'GET',
          handler: 'NetworkFirst',
          options: {
            cacheName: DETECTOR_DATA_CACHE,
            networkTimeoutSeconds: 8,
            cacheableResponse: { statuses: [200] },
            // Keyed by URL alone: an offline start has no access token, the answers may vary on it. The
            // cache holds one user's data only (cleared at sign-in and logout).
            matchOptions: { ignoreVary: true },
            expiration: { maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60 },
          },
        },
      ],
    },
  });
}

export default defineConfig({
  plugins: [react(), buildManifest(), devApiOrigin(), zodJitless(), installableApp()],
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  css: { postcss: { plugins: [titilliumFallback()] } },
  server: { port: 3000, strictPort: true },
  build: {
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 700,
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'], test: INITIAL_CHUNK }] } },
    },
  },
});
