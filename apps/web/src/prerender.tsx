// Build-time rendering of the public home page (see docs/decisions/008-prerendered-home.md).
// scripts/post-build.mjs puts the markup into dist/home.html, which the static server answers for `/`:
// the first paint shows the page instead of an empty root, and the app renders the same tree over it
// once its router is ready.
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router';
import { DefaultLayout } from './app/default-layout.tsx';
import { Component as HomePage } from './features/public/home-page.tsx';

const routes: RouteObject[] = [
  { id: 'root', children: [{ element: <DefaultLayout />, children: [{ index: true, handle: { pageId: 'home' }, Component: HomePage }] }] },
];

/** The home page as a guest sees it before any API answer (key figures still loading). */
export async function renderHome(): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`prerender: unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}
