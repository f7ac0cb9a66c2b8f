import { render } from '@testing-library/react';
import type { ComponentType } from 'react';
import { createRoutesStub, type ActionFunctionArgs, type LoaderFunctionArgs } from 'react-router';

export interface RouteUnderTest {
  /** The route's path pattern, as the route table has it (`/portale/istituti`, `/portale/x/:id`). */
  path: string;
  Component: ComponentType;
  /** The page's own `loader`, or a fixture loader that answers what the API would. */
  loader?: (args: LoaderFunctionArgs) => unknown;
  /** The page's own `action`. */
  action?: (args: ActionFunctionArgs) => unknown;
}

/**
 * Renders a page as the router does (loader, action, `<Form>`, `useFetcher`, revalidation) without a
 * server: React Router's `createRoutesStub` around the page module's exports, at `url`. The searches
 * its loader was called with are kept, so a test can assert what a filter or a sort put in the URL.
 */
export function renderRoute(route: RouteUnderTest, url: string = route.path) {
  const searches: string[] = [];
  const loader = route.loader;
  const Stub = createRoutesStub([
    {
      path: route.path,
      Component: route.Component,
      HydrateFallback: () => null,
      ...(loader
        ? {
            loader: (args: LoaderFunctionArgs) => {
              searches.push(new URL(args.request.url).searchParams.toString());
              return loader(args);
            },
          }
        : {}),
      ...(route.action ? { action: route.action } : {}),
    },
  ]);
  const view = render(<Stub initialEntries={[url]} />);
  return { ...view, searches };
}

/** A list loader's answer (`loadList`'s shape) for fixture rows: the query as the URL says, one page. */
export function listFixture<T>(items: T[]) {
  return ({ request }: LoaderFunctionArgs) => ({
    query: Object.fromEntries(new URL(request.url).searchParams),
    result: { items, total: items.length, page: 1, pageSize: 25 },
    problem: null,
  });
}
