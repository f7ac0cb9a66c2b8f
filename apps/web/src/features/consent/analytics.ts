/**
 * Google Analytics 4 in basic consent mode v2 (seed-behaviour §4.4): nothing is loaded and no request
 * goes to Google until the visitor enables 'analitici'; then consent default (all denied), consent
 * update (only analytics_storage granted), and only then gtag.js. Revoking denies, stops and deletes _ga*.
 */
const GA_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;
const DENIED_ADS = { ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' } as const;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
    [key: `ga-disable-${string}`]: boolean | undefined;
  }
}

let defaultQueued = false;
let scriptLoaded = false;
let active = false;

/** The measurement id published by the web server (GA_MEASUREMENT_ID), if any. */
export function measurementId(): string | undefined {
  const content = document.querySelector<HTMLMetaElement>('meta[name="portale-ga-id"]')?.content ?? '';
  return GA_ID_PATTERN.test(content) ? content : undefined;
}

function gtag(..._args: unknown[]) {
  // gtag.js reads the Arguments object itself, as in Google's snippet.
  // eslint-disable-next-line prefer-rest-params
  (window.dataLayer ??= []).push(arguments);
}

/** Deletes _ga and _ga_<id> on this host and on every parent domain (GA writes them on the registrable one). */
export function deleteAnalyticsCookies(): void {
  const names = document.cookie
    .split('; ')
    .map((part) => part.split('=')[0] ?? '')
    .filter((name) => name === '_ga' || name.startsWith('_ga_'));
  const labels = location.hostname.split('.');
  const domains = [''];
  for (let i = 0; i < labels.length - 1; i++) domains.push(labels.slice(i).join('.'));
  for (const name of names) {
    for (const domain of domains) {
      const attr = domain ? `; Domain=${domain}` : '';
      document.cookie = `${name}=; Max-Age=0; Path=/${attr}`;
      if (domain) document.cookie = `${name}=; Max-Age=0; Path=/; Domain=.${domain}`;
    }
  }
}

/** Page path without query string or fragment, as a route pattern when one is known (no ids, codes or e-mails). */
export function trackPageView(routePattern: string, title: string): void {
  const id = measurementId();
  if (!id || !active) return;
  gtag('event', 'page_view', {
    page_location: `${location.origin}${routePattern}`,
    page_title: title,
    send_to: id,
  });
}

/** Applies the visitor's choice: at startup from the stored cookies and after every change. */
export function applyAnalyticsConsent(enabled: boolean, routePattern: string = location.pathname): void {
  const id = measurementId();
  if (!id) return;
  if (!enabled) {
    if (defaultQueued) gtag('consent', 'update', { analytics_storage: 'denied', ...DENIED_ADS });
    window[`ga-disable-${id}`] = true;
    active = false;
    deleteAnalyticsCookies();
    return;
  }
  if (!defaultQueued) {
    gtag('consent', 'default', { analytics_storage: 'denied', ...DENIED_ADS, wait_for_update: 500 });
    defaultQueued = true;
  }
  gtag('consent', 'update', { analytics_storage: 'granted', ...DENIED_ADS });
  window[`ga-disable-${id}`] = false;
  active = true;
  if (!scriptLoaded) {
    scriptLoaded = true;
    window.gtag = gtag;
    gtag('js', new Date());
    gtag('config', id, {
      send_page_view: false,
      allow_google_signals: false,
      allow_ad_personalization_signals: false,
    });
    const script = document.createElement('script');
    script.async = true;
    script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
    document.head.append(script);
  }
  trackPageView(routePattern, document.title);
}
