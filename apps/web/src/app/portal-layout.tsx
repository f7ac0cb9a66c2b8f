import { Breadcrumb, BreadcrumbItem } from 'design-react-kit';
import { lazy, Suspense, useEffect } from 'react';
import { Link, NavLink, Outlet, useLocation, useMatches } from 'react-router';
import { breadcrumbOf, PAGES, type PageDef, type PageId, evaluateAccess } from '@portale/shared/pages';
import { AppFooter } from '../components/app-footer.tsx';
import { AppHeader } from '../components/app-header.tsx';
import { SkipLinks } from '../components/skip-links.tsx';
import { ConsentLayer } from '../features/consent/consent-layer.tsx';
import { openPreferences } from '../features/consent/consent-store.ts';
import { logout, useSession } from '../lib/session.ts';

/** The detector's installed app (service worker, update prompt, sync status): loaded only for detectors. */
const DetectorApp = lazy(() => import('../features/field-work/offline/detector-app.tsx'));

const NAV_PAGES = PAGES.filter((p) => p.layout === 'authenticated' && p.navLabel);

function usePageId(): PageId | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle as { pageId?: PageId } | undefined;
    if (handle?.pageId) return handle.pageId;
  }
  return undefined;
}

function Crumbs({ pageId }: { pageId: PageId }) {
  const trail = breadcrumbOf(pageId);
  return (
    <Breadcrumb aria-label="Percorso di navigazione" className="mb-3">
      {trail.map((page: PageDef, i) => {
        const last = i === trail.length - 1;
        return (
          <BreadcrumbItem key={page.id} active={last} aria-current={last ? 'page' : undefined}>
            {last || page.path.includes(':') ? page.title : <Link to={page.path}>{page.title}</Link>}
            {!last && <span className="separator">/</span>}
          </BreadcrumbItem>
        );
      })}
    </Breadcrumb>
  );
}

/** Authenticated layout: the side navigation shows only what the user's roles allow. */
export function PortalLayout() {
  // The committed location's key (a new one once a navigation has finished, redirects included): tests
  // that move inside the app wait on it instead of reloading the page.
  const location = useLocation();
  const { user } = useSession();
  const pageId = usePageId();
  const allowed = NAV_PAGES.filter((p) => evaluateAccess(p, user).kind === 'allow');
  const detector = user?.roles.includes('detector') ?? false;
  useEffect(() => {
    // Someone else signed in on a browser a detector used: the detector's offline app goes away
    // (its page data was cleared at sign-in; the drafts stay in IndexedDB for the detector).
    if (user && !detector && typeof navigator !== 'undefined' && navigator.serviceWorker)
      void navigator.serviceWorker.getRegistration('/').then((r) => r?.unregister());
  }, [user, detector]);
  return (
    <>
      <SkipLinks />
      <ConsentLayer />
      <AppHeader user={user} onLogout={logout} />
      <div className="container-xxl my-4">
        <div className="row">
          <div className="col-lg-3 mb-4">
            <nav aria-label="Navigazione del portale" className="link-list-wrapper">
              <ul className="link-list" data-testid="portal-nav">
                {allowed.map((page) => (
                  <li key={page.id}>
                    <NavLink
                      to={page.path}
                      end
                      className={({ isActive }) => `list-item${isActive ? ' active fw-bold' : ''}`}
                    >
                      <span>{page.navLabel}</span>
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
          <main id="main-content" className="col-lg-9" tabIndex={-1} data-location-key={location.key}>
            {detector && (
              <Suspense fallback={null}>
                <DetectorApp />
              </Suspense>
            )}
            {pageId && <Crumbs pageId={pageId} />}
            <Outlet />
          </main>
        </div>
      </div>
      <AppFooter onOpenCookiePreferences={openPreferences} />
    </>
  );
}
