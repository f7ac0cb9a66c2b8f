import { useEffect } from 'react';
import { useLocation, useMatches } from 'react-router';
import { getPage, type PageId } from '@portale/shared/pages';
import { trackPageView } from './analytics.ts';
import { ConsentBanner } from './consent-banner.tsx';

/** Banner, preferences and anonymous page views (route pattern only: no ids, codes or query strings). */
export function ConsentLayer() {
  const location = useLocation();
  const matches = useMatches();
  const pageId = [...matches]
    .reverse()
    .map((m) => (m.handle as { pageId?: PageId } | undefined)?.pageId)
    .find(Boolean);
  useEffect(() => {
    const timer = setTimeout(
      () => trackPageView(pageId ? getPage(pageId).path : '/pagina-non-trovata', document.title),
      0,
    );
    return () => clearTimeout(timer);
  }, [location.pathname, pageId]);
  return <ConsentBanner />;
}
