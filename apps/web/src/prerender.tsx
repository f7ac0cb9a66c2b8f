// Build-time rendering of the public pages (see docs/decisions/008-prerendered-home.md).
// scripts/post-build.mjs renders every public route of the route table that it can with this module,
// puts the markup into dist/prerendered/, and server/serve.mjs answers those paths with it: the first
// paint shows the page instead of an empty root, and the app renders the same page over it once its
// router is ready (main.tsx).
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type RouteObject,
} from 'react-router';
import { getPage, type PageId } from '@portale/shared/pages';
import { DefaultLayout } from './app/default-layout.tsx';
import { PageShell } from './components/page-shell.tsx';
import { prerenderConsentBanner } from './features/consent/consent-store.ts';

/**
 * What the router loads for a page (apps/web/src/app/router.tsx, PAGE_MODULES or the public frame). A
 * page whose first render needs the API's answer (`loader`) or the address bar may set
 * `prerenderShell`: its first paint is then its heading and a loading line (components/page-shell.tsx),
 * where the page itself starts with `<PageHeader>` in a `container` (`true`) or with `<NarrowPage>`
 * (`'narrow'`).
 */
export type PageModule = {
  Component: ComponentType;
  loader?: unknown;
  prerenderShell?: boolean | 'narrow';
};

/**
 * Why a page is not rendered at build time, or undefined when it is. A page that loads its own data
 * (`loader`) shows what the API answers, so its first paint cannot be known in advance, unless it
 * asks for its shell.
 */
export function notPrerenderable(module: PageModule): string | undefined {
  return module.loader && !module.prerenderShell ? 'its content comes from the API (loader)' : undefined;
}

/**
 * The page at `pageId` as a guest sees it before any API answer (the session is not restored yet and
 * no loader runs), inside the real default layout, with the title and description of its head; with
 * the cookie banner of a first visit when `consentBanner` is set. Throws when the page needs the
 * browser to render (e.g. it reads the address bar), which post-build reports.
 */
export async function renderPage(
  pageId: PageId,
  module: PageModule,
  { consentBanner = false }: { consentBanner?: boolean } = {},
): Promise<{ markup: string; title: string; description: string }> {
  prerenderConsentBanner(consentBanner);
  const page = getPage(pageId);
  const Shell = () => (
    <PageShell
      title={page.title}
      description={page.description}
      narrow={module.prerenderShell === 'narrow'}
    />
  );
  const routes: RouteObject[] = [
    {
      id: 'root',
      children: [
        {
          element: <DefaultLayout />,
          children: [
            {
              path: page.path,
              handle: { pageId: page.id },
              Component: module.prerenderShell ? Shell : module.Component,
            },
          ],
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${page.path}`));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const markup = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  // The head the page sets once it runs (components/page-meta.tsx), already in the HTML.
  return {
    markup,
    title: page.title === 'Portale Scuole' ? page.title : `${page.title} | Portale Scuole`,
    description: page.description,
  };
}
