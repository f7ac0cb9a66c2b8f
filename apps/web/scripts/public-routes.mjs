// The public routes of the shared route table, for the build (scripts/post-build.mjs prerenders them)
// and the web benchmarks (bench/lighthouse.mjs, bench/web-budget.mjs): `PAGES` with layout 'default', no URL params, and no guard that sends an
// anonymous visitor elsewhere (only 'unauth' is kept). Also which module renders each page, read from
// the router's PAGE_MODULES (a page without its own module shows the public page frame).
import { readFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

/** Guards that let an anonymous visitor see the page; any other guard redirects them (login, …). */
const ANONYMOUS_GUARDS = new Set(['unauth']);

/** `[{ id, path }]` of every public route, in route-table order. */
export async function publicRoutes() {
  const { PAGES } = await tsImport('../../../packages/shared/src/pages/index.ts', import.meta.url);
  return PAGES.filter(
    (p) => p.layout === 'default' && !p.path.includes(':') && p.guards.every((g) => ANONYMOUS_GUARDS.has(g)),
  ).map((p) => ({ id: p.id, path: p.path }));
}

/**
 * Page id → source of its module as a Vite manifest key (`src/…`), from apps/web/src/app/router.tsx:
 * `'id': () => import('…')` or `id: alias` with `const alias = () => import('…')`. Throws when the router
 * no longer has that shape, so the budget never silently measures the wrong chunk.
 */
export function pageModules() {
  const router = readFileSync(new URL('../src/app/router.tsx', import.meta.url), 'utf8');
  const toKey = (specifier) => `src/${specifier.replace(/^\.\.\//, '').replace(/^\.\//, 'app/')}`;
  const aliases = new Map(
    [...router.matchAll(/^const (\w+) = \(\) => import\('([^']+)'\);/gm)].map((m) => [m[1], toKey(m[2])]),
  );
  const block = /^const PAGE_MODULES\b.* = \{\n([\s\S]*?)\n\};/m.exec(router)?.[1];
  if (!block || !aliases.has('publicFrame'))
    throw new Error('bench: PAGE_MODULES or publicFrame not found in apps/web/src/app/router.tsx');
  const modules = new Map();
  for (const m of block.matchAll(/^\s*'?([\w.-]+)'?: (?:\(\) => import\('([^']+)'\)|(\w+)),$/gm)) {
    const key = m[2] ? toKey(m[2]) : aliases.get(m[3]);
    if (!key) throw new Error(`bench: unknown module alias ${m[3]} in router.tsx`);
    modules.set(m[1], key);
  }
  return { modules, fallback: aliases.get('publicFrame') };
}
