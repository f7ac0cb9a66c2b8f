import type { LoaderFunction, RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@portale/shared/auth';
import { SEED_ERRORS } from '@portale/shared/http';
import { PAGES, evaluateAccess, type PageDef } from '@portale/shared/pages';
import { DEMO_ACCOUNTS } from '../../../../e2e/demo-accounts.ts';
import { routes } from './router.tsx';

// Every (account, page) decision of the route table, through the route's own loader: the loader of the
// route at a page's path runs that page's guards (the real `runGuards` and `evaluateAccess`) and turns
// a redirect into a redirect and a refusal into the 403 error. The e2e role matrix
// (e2e/tests/role-matrix.spec.ts) renders each allowed page per role in the browser and one refusal and
// one redirect per account; the many identical refusals and redirects are proven here.

const session = vi.hoisted(() => ({ user: null as SessionUser | null }));
vi.mock('../lib/session.ts', () => ({
  restoreSession: async () => {},
  getSession: () => ({ user: session.user, loggedIn: !!session.user, strategy: 'local', busy: false }),
}));

/** Thrown after the guards let the request through: the page's own data is not this test's subject. */
const PASSED = vi.hoisted(() => new Error('guards passed'));
vi.mock('./guards.ts', async (original) => {
  const real = await original<typeof import('./guards.ts')>();
  return {
    ...real,
    runGuards: async (...args: Parameters<typeof real.runGuards>) => {
      await real.runGuards(...args);
      throw PASSED;
    },
  };
});

afterEach(() => {
  session.user = null;
});

/** The loader of each page's route, by page id. */
function loadersByPage(): Map<string, LoaderFunction> {
  const found = new Map<string, LoaderFunction>();
  const walk = (list: RouteObject[]) => {
    for (const route of list) {
      const pageId = (route.handle as { pageId?: string } | undefined)?.pageId;
      if (pageId && typeof route.loader === 'function') found.set(pageId, route.loader);
      if (route.children) walk(route.children);
    }
  };
  walk(routes);
  return found;
}
const LOADERS = loadersByPage();

function paramsOf(page: PageDef): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, key] of page.path.matchAll(/:(\w+)/g))
    params[key!] = key === 'reviewType' ? 'insegnanti' : key === 'token' ? 'PROVA01' : '1';
  return params;
}

type Outcome = { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'forbidden'; message: string };

async function outcomeOf(page: PageDef): Promise<Outcome> {
  const params = paramsOf(page);
  const path = page.path.replace(/:(\w+)/g, (_, key: string) => params[key]!);
  const loader = LOADERS.get(page.id);
  if (!loader) throw new Error(`no route for ${page.id}`);
  try {
    await loader({ params, request: new Request(`http://localhost${path}`), context: undefined } as never);
  } catch (thrown) {
    if (thrown === PASSED) return { kind: 'allow' };
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400)
      return { kind: 'redirect', to: thrown.headers.get('Location') ?? '' };
    const init = (thrown as { init?: { status?: number }; data?: { message?: string } }).init;
    if (init?.status === 403)
      return { kind: 'forbidden', message: (thrown as { data: { message: string } }).data.message };
    throw thrown;
  }
  throw new Error(`${path}: the loader returned without running the guards`);
}

const WHO = [{ email: 'guest', user: null }, ...DEMO_ACCOUNTS.map((a) => ({ email: a.email, user: a.user }))];

describe('the route table runs each page’s guards', () => {
  it('has a route with a loader for every page', () => {
    expect(PAGES.filter((p) => !LOADERS.has(p.id)).map((p) => p.id)).toEqual([]);
  });

  for (const who of WHO) {
    it(`${who.email}: every page redirects, refuses or opens as its guards decide`, async () => {
      session.user = who.user as SessionUser | null;
      for (const page of PAGES) {
        const decision = evaluateAccess(page, who.user);
        const expected: Outcome =
          decision.kind === 'redirect'
            ? { kind: 'redirect', to: decision.to }
            : decision.kind === 'forbidden'
              ? { kind: 'forbidden', message: decision.message }
              : { kind: 'allow' };
        expect(await outcomeOf(page), `${who.email} on ${page.path}`).toEqual(expected);
      }
    });
  }
});

/** The 404 a route's loader throws for a path it does not take, with its message. */
async function notFoundOf(pageId: string, params: Record<string, string>, path: string): Promise<string> {
  try {
    await LOADERS.get(pageId)!({
      params,
      request: new Request(`http://localhost${path}`),
      context: undefined,
    } as never);
  } catch (thrown) {
    const { init, data } = thrown as { init?: { status?: number }; data?: { message?: string } };
    if (init?.status === 404) return data?.message ?? '';
    throw thrown;
  }
  throw new Error(`${path}: no 404`);
}

describe('the route table refuses malformed addresses before any request', () => {
  // e2e/tests/errors.spec.ts opens /abc (malformed) and /abc1234 (well-formed, unknown) in the browser,
  // and a malformed id and an unknown review type inside the portal.
  for (const token of ['abc-123', 'abcdefgh', 'abc']) {
    it(`/${token} is the access-code 404`, async () => {
      expect(await notFoundOf('access-code', { token }, `/${token}`)).toBe(
        SEED_ERRORS.tokenNotFound(`/${token}`),
      );
    });
  }

  it('a malformed id or an unknown review type is a 404, also for a user who may open the page', async () => {
    session.user = DEMO_ACCOUNTS.find((a) => a.email === 'superadmin@demo.test')!.user as SessionUser;
    const cases: [string, Record<string, string>, string][] = [
      ['portal.institute', { instituteId: 'abc' }, '/portale/istituti/abc'],
      ['portal.site', { siteId: '0' }, '/portale/istituti/plessi/0'],
      ['portal.reviews', { reviewType: 'altro' }, '/portale/revisioni/altro'],
      ['portal.review', { reviewType: 'altro' }, '/portale/revisioni/altro/revisione'],
    ];
    for (const [pageId, params, path] of cases)
      expect(await notFoundOf(pageId, params, path), path).toBe(SEED_ERRORS.pageNotFound(path));
  });
});
