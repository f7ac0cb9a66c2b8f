import type { PageDef } from './page-def.ts';
import { PORTAL_PAGES } from './portal-pages.ts';
import { PUBLIC_PAGES } from './public-pages.ts';

export type { Layout, PageDef } from './page-def.ts';

/** The route table, as written (public pages, then the portal's): `PAGES` below is its typed face. */
const PAGE_LIST = [...PUBLIC_PAGES, ...PORTAL_PAGES] as const;

/** The id of a page of the route table: a typo in a page id fails `tsc` (issue 36). */
export type PageId = (typeof PAGE_LIST)[number]['id'];

/** Every route of seed-spec §2 with its guards and access rule (seed-spec §6): the one source of truth. */
export const PAGES: readonly PageDef<PageId>[] = PAGE_LIST;

/** Review types of product §3; any other `{type}` is a 404. */
export const REVIEW_TYPES = ['insegnanti', 'adesioni', 'visite'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];
export const REVIEW_TYPE_LABELS: Record<ReviewType, string> = {
  insegnanti: 'Registrazioni di insegnanti ed educatori',
  adesioni: 'Adesioni firmate',
  visite: 'Rapporti di visita',
};

const byId = new Map<string, PageDef<PageId>>(PAGES.map((p) => [p.id, p]));

/** Whether a string from outside the code (a URL, a route's handle) names a page. */
export function isPageId(id: string): id is PageId {
  return byId.has(id);
}

/** The page with this id; throws for an unknown id (a programming error). */
export function getPage(id: PageId): PageDef<PageId> {
  const page = byId.get(id);
  if (!page) throw new Error(`Unknown page id: ${id}`);
  return page;
}

/** Fills a pattern's params: href('portal.institute', { instituteId: 5 }) → '/portale/istituti/5'. */
export function href(id: PageId, params: Record<string, string | number> = {}): string {
  return getPage(id).path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing param ${key} for ${id}`);
    return encodeURIComponent(String(value));
  });
}

/** The breadcrumb trail of a page, root first (the page itself last). */
export function breadcrumbOf(id: PageId): PageDef<PageId>[] {
  const trail: PageDef<PageId>[] = [];
  for (
    let page: PageDef<PageId> | undefined = getPage(id);
    page;
    page = page.parent && isPageId(page.parent) ? getPage(page.parent) : undefined
  ) {
    trail.unshift(page);
  }
  return trail;
}

/** Canonical redirect targets of the guards (seed-spec §2). */
export const REDIRECTS = {
  login: '/auth/login',
  home: '/portale',
  logout: '/',
  changePassword: '/auth/cambia-password',
  completeRegistration: '/auth/completa-registrazione',
  signPrincipalDocument: '/iscrizioni/adesione-formale',
  enrolment: '/iscrizioni/iscrizione',
} as const;
