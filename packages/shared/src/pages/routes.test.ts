import { describe, expect, it } from 'vitest';
import { GUARD_NAMES } from './guards.ts';
import { PAGES, REDIRECTS, breadcrumbOf, getPage, href, isPageId, type PageId } from './routes.ts';

/** Seed-spec §2, every route, written literally from the spec. */
const SEED_ROUTES = [
  '/',
  '/{token}',
  '/auth/login',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/cambia-password',
  '/contatti',
  '/documentazione',
  '/edu',
  '/indagine',
  '/policy/cookie',
  '/prenotazioni',
  '/risultati',
  '/team',
  '/verifica/email-verificata',
  '/iscrizioni/iscrizione',
  '/landing/azioni',
  '/landing/edu',
  '/landing/registrazioni/altro',
  '/landing/registrazioni/educatore',
  '/landing/registrazioni/insegnante',
  '/test-char-9534310001a',
  '/auth/completa-registrazione',
  '/iscrizioni/adesione-formale',
  '/portale',
  '/portale/adesioni/panel',
  '/portale/avanzamento',
  '/portale/azioni',
  '/portale/azioni-modelli',
  '/portale/insegnanti',
  '/portale/istituti',
  '/portale/istituti/{id}',
  '/portale/istituti/plessi',
  '/portale/istituti/plessi/{id}',
  '/portale/istituti/plessi/{id}/insegnanti',
  '/portale/istituti/plessi/{id}/visite',
  '/portale/istituti/rilevatori/plessi',
  '/portale/istituti/rilevatori/plessi/{id}',
  '/portale/mappa',
  '/portale/revisioni/{type}',
  '/portale/revisioni/{type}/revisione',
  '/portale/rilevatori',
  '/portale/sostituzioni',
  '/portale/template',
  '/portale/utenti',
];

/**
 * Routes added after the seed, on purpose: the own account (issue 4), one user's page (issue 7), the
 * staff's bookings and documents (issue 12, decision 014), the staff's enrolment invitations (issue 32),
 * the public results' methodology (issue 37, decision 035), the offline reports' conflicts (issue 39).
 */
const ADDED_ROUTES = [
  // The landing of a CIE login (issue 38, decision 048): its outcome, the link and registration choices.
  '/auth/identita',
  '/risultati/metodologia',
  '/portale/account',
  '/portale/utenti/{id}',
  '/portale/prenotazioni',
  '/portale/prenotazioni/{id}',
  '/portale/documenti',
  '/portale/documenti/{id}',
  '/portale/indagini',
  '/portale/indagini/{id}',
  '/portale/adesioni/inviti',
  // The conflicts of offline visit reports, for staff to decide (issue 39, decision 051).
  '/portale/rilevatori/conflitti',
  '/portale/rilevatori/{id}',
];

const STAFF = ['super-admin', 'sylla', 'cromos'];
const DETECTOR = ['super-admin', 'detector'];

/** Seed-spec §6 table, written literally: route → roles and permissions that are allowed. */
const SEED_RULES: Record<string, { roles: string[]; permissions: string[] }> = {
  '/iscrizioni/adesione-formale': { roles: ['school.principal', 'institute.first-contact'], permissions: [] },
  '/portale/adesioni/panel': { roles: ['super-admin', 'cromos', 'sylla'], permissions: ['user.index'] },
  '/portale/utenti': { roles: ['super-admin', 'cromos'], permissions: ['user.index'] },
  '/portale/revisioni/{type}': { roles: ['super-admin', 'cromos', 'sylla'], permissions: ['user.index'] },
  '/portale/avanzamento': { roles: STAFF, permissions: [] },
  '/portale/azioni': { roles: STAFF, permissions: [] },
  '/portale/insegnanti': { roles: STAFF, permissions: [] },
  '/portale/istituti': { roles: STAFF, permissions: [] },
  '/portale/istituti/{id}': { roles: STAFF, permissions: [] },
  '/portale/istituti/plessi': { roles: STAFF, permissions: [] },
  '/portale/istituti/plessi/{id}': { roles: STAFF, permissions: [] },
  '/portale/mappa': { roles: STAFF, permissions: [] },
  '/portale/revisioni/{type}/revisione': { roles: STAFF, permissions: [] },
  '/portale/rilevatori': { roles: STAFF, permissions: [] },
  '/portale/istituti/plessi/{id}/insegnanti': { roles: DETECTOR, permissions: [] },
  '/portale/istituti/plessi/{id}/visite': { roles: DETECTOR, permissions: [] },
  '/portale/istituti/rilevatori/plessi': { roles: DETECTOR, permissions: [] },
  '/portale/istituti/rilevatori/plessi/{id}': { roles: DETECTOR, permissions: [] },
  '/portale/sostituzioni': { roles: ['super-admin', 'sylla'], permissions: [] },
  '/portale/azioni-modelli': { roles: ['super-admin'], permissions: [] },
  '/portale/template': { roles: ['super-admin'], permissions: [] },
};

/** Added routes with a role rule: the same as the list they belong to. */
const ADDED_RULES: Record<string, { roles: string[]; permissions: string[] }> = {
  '/portale/utenti/{id}': SEED_RULES['/portale/utenti']!,
  // Issue 12: staff screens for the public participation, the rule of the other staff lists.
  '/portale/prenotazioni': { roles: STAFF, permissions: [] },
  '/portale/prenotazioni/{id}': { roles: STAFF, permissions: [] },
  '/portale/documenti': { roles: STAFF, permissions: [] },
  '/portale/documenti/{id}': { roles: STAFF, permissions: [] },
  '/portale/indagini': { roles: STAFF, permissions: [] },
  '/portale/indagini/{id}': { roles: STAFF, permissions: [] },
  // Issue 32: the invitations of an enrolment, read by whoever reads the adhesions panel.
  '/portale/adesioni/inviti': SEED_RULES['/portale/adesioni/panel']!,
  // Issue 39: the conflicts of offline visit reports, decided by whoever manages the detectors.
  '/portale/rilevatori/conflitti': SEED_RULES['/portale/rilevatori']!,
  '/portale/rilevatori/{id}': SEED_RULES['/portale/rilevatori']!,
};

/** Pages every Italian public-sector site must have (issue 3): public, no guards. */
const LEGAL_ROUTES = ['/privacy', '/note-legali', '/dichiarazione-accessibilita'];

/** `/portale/istituti/:instituteId` and `/portale/istituti/{id}` both become `/portale/istituti/{}`. */
const normalise = (path: string) => path.replace(/:\w+/g, '{}').replace(/\{\w+\}/g, '{}');
const pageAt = (seedPath: string) => PAGES.find((p) => normalise(p.path) === normalise(seedPath));
const sorted = (list: readonly string[]) => [...list].sort();

describe('route table', () => {
  it('holds every seed route exactly once and nothing else', () => {
    const paths = PAGES.map((p) => normalise(p.path));
    expect(new Set(paths).size).toBe(paths.length);
    expect(sorted(paths)).toEqual(sorted([...SEED_ROUTES, ...LEGAL_ROUTES, ...ADDED_ROUTES].map(normalise)));
  });

  it('has unique page ids', () => {
    expect(new Set(PAGES.map((p) => p.id)).size).toBe(PAGES.length);
  });

  it('uses only known guard names', () => {
    for (const page of PAGES) {
      for (const guard of page.guards) expect(GUARD_NAMES).toContain(guard);
    }
  });

  it('guards /portale with auth, update-password, has-verified-all-contacts, sign-principal-document in this order', () => {
    expect(pageAt('/portale')?.guards).toEqual([
      'auth',
      'update-password',
      'has-verified-all-contacts',
      'sign-principal-document',
    ]);
    expect(pageAt('/portale')?.access).toBeUndefined();
  });

  it.each(Object.entries({ ...SEED_RULES, ...ADDED_RULES }))(
    'restricts %s to the roles and permissions of seed §6',
    (path, rule) => {
      const page = pageAt(path);
      expect(page, path).toBeDefined();
      expect(page!.guards[0]).toBe('auth');
      expect(page!.guards.at(-1)).toBe('has-role-or-permission');
      expect(sorted(page!.access!.roles)).toEqual(sorted(rule.roles));
      expect(sorted(page!.access!.permissions)).toEqual(sorted(rule.permissions));
    },
  );

  it('gives every staff portal route the /portale guards before the role check', () => {
    for (const page of PAGES.filter(
      (p) => p.path.startsWith('/portale/') && !ADDED_ROUTES.includes(p.path),
    )) {
      expect(page.guards, page.path).toEqual([
        'auth',
        'update-password',
        'has-verified-all-contacts',
        'sign-principal-document',
        'has-role-or-permission',
      ]);
      expect(page.layout).toBe('authenticated');
    }
  });

  it('restricts no other route by role', () => {
    const restricted = PAGES.filter((p) => p.access || p.guards.includes('has-role-or-permission')).map((p) =>
      normalise(p.path),
    );
    expect(sorted(restricted)).toEqual(
      sorted([...Object.keys(SEED_RULES), ...Object.keys(ADDED_RULES)].map(normalise)),
    );
  });

  it('gives /portale/account the /portale guards and no role rule', () => {
    expect(pageAt('/portale/account')?.guards).toEqual([
      'auth',
      'update-password',
      'has-verified-all-contacts',
      'sign-principal-document',
    ]);
    expect(pageAt('/portale/account')?.access).toBeUndefined();
    expect(pageAt('/portale/account')?.layout).toBe('authenticated');
  });

  it('lets any logged-in user open /auth/completa-registrazione', () => {
    const page = pageAt('/auth/completa-registrazione')!;
    expect(page.guards).toContain('auth');
    expect(page.access).toBeUndefined();
  });

  it('keeps the public routes free of the auth guard', () => {
    const loggedIn = [
      '/auth/cambia-password',
      '/auth/completa-registrazione',
      '/iscrizioni/adesione-formale',
    ];
    for (const page of PAGES.filter((p) => !p.path.startsWith('/portale') && !loggedIn.includes(p.path))) {
      expect(page.guards, page.path).not.toContain('auth');
    }
  });

  it('points every breadcrumb parent at an existing page', () => {
    for (const page of PAGES) if (page.parent) expect(isPageId(page.parent), page.parent).toBe(true);
  });
});

describe('href and breadcrumbOf', () => {
  it('fills and encodes route params', () => {
    expect(href('portal.institute', { instituteId: 5 })).toBe('/portale/istituti/5');
    expect(href('portal.reviews', { reviewType: 'a b' })).toBe('/portale/revisioni/a%20b');
    expect(href('portal.home')).toBe(REDIRECTS.home);
  });

  it('throws on a missing param or an unknown page id', () => {
    expect(() => href('portal.institute')).toThrow(/instituteId/);
    expect(() => getPage('nope' as PageId)).toThrow(/Unknown page id/);
  });

  it('builds the breadcrumb trail root first', () => {
    expect(breadcrumbOf('portal.site').map((p) => p.id)).toEqual([
      'portal.home',
      'portal.sites',
      'portal.site',
    ]);
    expect(breadcrumbOf('portal.home').map((p) => p.id)).toEqual(['portal.home']);
  });
});
