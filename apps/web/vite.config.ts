import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Plugin as PostcssPlugin } from 'postcss';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), buildManifest(), devApiOrigin(), zodJitless()],
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
