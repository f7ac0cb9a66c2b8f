import { createBrowserRouter, data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { SEED_ERRORS } from '@portale/shared/http';
import { isValidToken, PAGES, REVIEW_TYPES, type PageDef, type PageId } from '@portale/shared/pages';
import { parseId } from '@portale/shared/validation';
import { RouteError } from '../features/errors/route-error.tsx';
import { runGuards } from './guards.ts';
import { apiRequest } from '../lib/api-client.ts';
import { restoreSession } from '../lib/session.ts';
import { DefaultLayout } from './default-layout.tsx';
import { PortalLayout } from './portal-layout.tsx';
import { isChunkLoadError, reloadAt } from './reload.ts';

type LazyModule = {
  Component: React.ComponentType;
  action?: RouteObject['action'];
  /** The page's own data, fetched after the guards instead of `/api/portal/pages/:id`. */
  loader?: (args: LoaderFunctionArgs) => Promise<unknown>;
};

const landingPage = () => import('../features/public/landing-page.tsx');
const registrationLanding = () => import('./registration-landing-page.tsx');
const legalPage = () => import('../features/public/legal-page.tsx');

/** Page components by page id; every other page shows its frame from the route table. */
const PAGE_MODULES: Partial<Record<PageId, () => Promise<LazyModule>>> = {
  'auth.login': () => import('../features/auth/login-page.tsx'),
  'auth.identity': () => import('../features/identity/identity-result-page.tsx'),
  'portal.home': () => import('../features/portal/portal-home-page.tsx'),
  home: () => import('../features/public/home-page.tsx'),
  team: () => import('../features/public/team-page.tsx'),
  contacts: () => import('../features/public/contacts-page.tsx'),
  documentation: () => import('../features/public/documentation-page.tsx'),
  bookings: () => import('../features/bookings/bookings-page.tsx'),
  'portal.bookings': () => import('../features/bookings/slot-list-page.tsx'),
  'portal.booking-slot': () => import('../features/bookings/slot-page.tsx'),
  'portal.documents': () => import('../features/documents/document-list-page.tsx'),
  'portal.document': () => import('../features/documents/document-page.tsx'),
  'portal.surveys': () => import('../features/surveys/survey-list-page.tsx'),
  'portal.survey': () => import('../features/surveys/survey-page.tsx'),
  results: () => import('../features/results/results-page.tsx'),
  'results.methodology': () => import('../features/results/methodology-page.tsx'),
  survey: () => import('../features/public/survey-page.tsx'),
  'access-code': () => import('../features/access-codes/access-code-page.tsx'),
  'cookie-policy': () => import('../features/consent/cookie-policy-page.tsx'),
  'test-char': () => import('../features/public/test-char-page.tsx'),
  edu: landingPage,
  'landing.edu': landingPage,
  'landing.actions': landingPage,
  'landing.registration.teacher': registrationLanding,
  'landing.registration.educator': registrationLanding,
  'landing.registration.other': registrationLanding,
  'auth.change-password': () => import('../features/accounts/change-password-page.tsx'),
  'auth.forgot-password': () => import('../features/accounts/forgot-password-page.tsx'),
  'auth.reset-password': () => import('../features/accounts/reset-password-page.tsx'),
  'auth.complete-registration': () => import('../features/accounts/complete-registration-page.tsx'),
  'email-verified': () => import('../features/accounts/email-verified-page.tsx'),
  'portal.account': () => import('../features/accounts/account-page.tsx'),
  'portal.institutes': () => import('../features/registry/institute-list-page.tsx'),
  'portal.institute': () => import('../features/registry/institute-detail-page.tsx'),
  'portal.sites': () => import('../features/registry/school-site-list-page.tsx'),
  'portal.site': () => import('../features/registry/school-site-detail-page.tsx'),
  'portal.users': () => import('../features/users/user-list-page.tsx'),
  'portal.user': () => import('../features/users/user-detail-page.tsx'),
  'portal.teachers': () => import('../features/teachers/teacher-list-page.tsx'),
  adhesion: () => import('../features/adhesions/adhesion-page.tsx'),
  'portal.reviews': () => import('../features/reviews/review-queue-page.tsx'),
  'portal.review': () => import('../features/reviews/review-page.tsx'),
  'portal.map': () => import('../features/map/map-page.tsx'),
  'portal.detectors': () => import('../features/field-work/detectors-page.tsx'),
  'portal.detector-conflicts': () => import('../features/field-work/conflicts-page.tsx'),
  'portal.detector': () => import('../features/field-work/detector-page.tsx'),
  'portal.detector-sites': () => import('../features/field-work/detector-sites-page.tsx'),
  'portal.detector-site': () => import('../features/field-work/detector-site-page.tsx'),
  'portal.site-teachers': () => import('../features/field-work/site-teachers-page.tsx'),
  'portal.site-visits': () => import('../features/field-work/site-visits-page.tsx'),
  'portal.actions': () => import('../features/actions/actions-page.tsx'),
  'portal.action-models': () => import('../features/actions/action-models-page.tsx'),
  'portal.substitutions': () => import('../features/substitutions/substitutions-page.tsx'),
  'portal.progress': () => import('../features/progress/progress-page.tsx'),
  enrolment: () => import('./enrolment-page.tsx'),
  'portal.adhesions-panel': () => import('../features/adhesion-panel/adhesion-panel-page.tsx'),
  'portal.enrolment-invitations': () => import('../features/enrolment/invitation-list-page.tsx'),
  'portal.templates': () => import('../features/templates/template-page.tsx'),
  privacy: legalPage,
  'legal-notes': legalPage,
  accessibility: legalPage,
};
const publicFrame = () => import('../features/public/page-frame.tsx');
const portalFrame = () => import('../features/portal/portal-page-frame.tsx');

function fullPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** A lazily loaded chunk that is gone (new build) reloads the navigation target once. */
function lazyPage(load: () => Promise<LazyModule>) {
  return async () => {
    try {
      const { Component, action } = await load();
      return action ? { Component, action } : { Component };
    } catch (error) {
      const target = router?.state.navigation.location;
      if (isChunkLoadError(error) && target && reloadAt(target.pathname + target.search + target.hash)) {
        return new Promise<never>(() => {});
      }
      throw error;
    }
  };
}

/** `{id}` params must be positive integers and `{type}` a known review type; anything else is a 404. */
function assertParams(params: LoaderFunctionArgs['params'], request: Request) {
  for (const [key, value] of Object.entries(params)) {
    const valid = key.endsWith('Id')
      ? parseId(value) !== undefined
      : key === 'reviewType'
        ? (REVIEW_TYPES as readonly string[]).includes(value ?? '')
        : true;
    if (!valid) throw data({ message: SEED_ERRORS.pageNotFound(fullPath(request)) }, { status: 404 });
  }
}

function pageRoute(page: PageDef<PageId>): RouteObject {
  const isPortal = page.layout === 'authenticated';
  const load = PAGE_MODULES[page.id] ?? (isPortal ? portalFrame : publicFrame);
  return {
    path: page.path,
    handle: { pageId: page.id },
    errorElement: <RouteError />,
    lazy: lazyPage(load),
    loader: async (args) => {
      const { params, request } = args;
      if (page.id === 'access-code' && !isValidToken(params.token ?? '')) {
        // Format first (seed §5); a well-formed code that opens nothing is the same 404 (the page's own data).
        throw data({ message: SEED_ERRORS.tokenNotFound(fullPath(request)), valid: false }, { status: 404 });
      }
      assertParams(params, request);
      await runGuards(page, request);
      const ownModule = PAGE_MODULES[page.id];
      const own = ownModule && (await ownModule()).loader;
      if (own) return own(args);
      if (isPortal && page.id !== 'portal.home') return apiRequest(`/api/portal/pages/${page.id}`);
      return null;
    },
  };
}

const notFound: RouteObject = {
  path: '*',
  errorElement: <RouteError />,
  loader: ({ request }) => {
    throw data({ message: SEED_ERRORS.pageNotFound(fullPath(request)) }, { status: 404 });
  },
};

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: async () => {
      await restoreSession();
      return null;
    },
    HydrateFallback: () => (
      <p className="container my-5" role="status">
        Caricamento del portale…
      </p>
    ),
    errorElement: <RouteError />,
    children: [
      {
        element: <DefaultLayout />,
        children: [...PAGES.filter((p) => p.layout === 'default').map(pageRoute), notFound],
      },
      {
        element: <PortalLayout />,
        children: PAGES.filter((p) => p.layout === 'authenticated').map(pageRoute),
      },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | undefined;

/** The app's router (one per page load); creating it starts the first page's loaders. */
export function createRouter() {
  router = createBrowserRouter(routes);
  return router;
}
