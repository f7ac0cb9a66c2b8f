import { Outlet, useLocation } from 'react-router';
import { AppFooter } from '../components/app-footer.tsx';
import { AppHeader } from '../components/app-header.tsx';
import { SkipLinks } from '../components/skip-links.tsx';
import { ConsentLayer } from '../features/consent/consent-layer.tsx';
import { openPreferences } from '../features/consent/consent-store.ts';
import { logout, useSession } from '../lib/session.ts';

/** Default layout: public header, main content, footer with legal links. */
export function DefaultLayout() {
  const { user } = useSession();
  // The committed location's key (a new one once a navigation has finished, redirects included): tests
  // that move inside the app wait on it instead of reloading the page.
  const location = useLocation();
  return (
    <>
      <SkipLinks />
      <ConsentLayer />
      <AppHeader user={user} onLogout={logout} />
      <main id="main-content" tabIndex={-1} data-location-key={location.key}>
        <Outlet />
      </main>
      <AppFooter onOpenCookiePreferences={openPreferences} />
    </>
  );
}
