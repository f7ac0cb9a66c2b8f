import { PAGES as PAGE_DEFS } from '@portale/shared/pages';
import {
  appReady,
  DESKTOP,
  expect,
  expectNoAxeViolations,
  PHONE,
  rememberConsentChoice,
  resizeTo,
  test,
} from '../fixtures.ts';
import { PUBLIC_PAGES as PAGES } from '../public-pages.ts';

/** Decided visitors: the banner is tested in consent.spec.ts, here it would hide content. */
test.beforeEach(async ({ context, baseURL }) => {
  await rememberConsentChoice(context, baseURL!);
  // Every Content-Security-Policy violation of the page, e.g. a library probing for eval.
  await context.addInitScript(() => {
    const found: string[] = ((window as unknown as { cspViolations: string[] }).cspViolations = []);
    document.addEventListener('securitypolicyviolation', (e) =>
      found.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`),
    );
  });
});

/**
 * Every page rendered at build time (apps/web/scripts/post-build.mjs): the public routes of the route
 * table that a guest sees the same before any API answer, and the shell (heading and loading line) of
 * those whose content is the API's answer or the address bar's (the link's token). Portal pages and
 * unknown paths get the empty app.
 */
const NOT_PRERENDERED = ['/portale', '/pagina-che-non-esiste'];
const SHELLS = [
  '/indagine',
  '/prenotazioni',
  '/risultati',
  '/risultati/metodologia',
  '/auth/reset-password',
  '/verifica/email-verificata',
];
const PRERENDERED = [
  ...PAGES.filter((p) => !NOT_PRERENDERED.includes(p.path)).map(({ path, h1 }) => ({ path, h1 })),
  { path: '/auth/login', h1: 'Accedi' },
  { path: '/auth/forgot-password', h1: 'Password dimenticata' },
  { path: '/prenotazioni', h1: 'Prenotazioni' },
  { path: '/risultati', h1: 'Risultati' },
  { path: '/auth/reset-password', h1: 'Imposta una nuova password' },
  { path: '/verifica/email-verificata', h1: 'Verifica e-mail' },
].filter((p, i, all) => all.findIndex((q) => q.path === p.path) === i);

/**
 * Every public page of the route table (a guest's pages of the default layout without a parameter),
 * with its h1: from issue 3's list with a piece of key content, else the route table's title.
 */
const ROUTE_TABLE_PAGES = PAGE_DEFS.filter(
  (p) => p.layout === 'default' && !p.path.includes(':') && !p.guards.includes('auth'),
);
const ALL_PAGES: { path: string; h1: string; key?: string }[] = [
  ...PAGES,
  ...PRERENDERED.filter((p) => !PAGES.some((q) => q.path === p.path)),
  ...ROUTE_TABLE_PAGES.filter((def) => ![...PAGES, ...PRERENDERED].some((q) => q.path === def.path)).map(
    (def) => ({ path: def.path, h1: def.title }),
  ),
];
const PAINTED = new Set(PRERENDERED.map((p) => p.path));
const FOOTER_LINKS = [
  'Informativa privacy',
  'Note legali',
  'Cookie policy',
  'Dichiarazione di accessibilità',
];

/**
 * One load per page, checked at both widths: painted from the HTML (when prerendered), taken over by the
 * app without errors, its h1, key content, head and footer, axe and CSP at the width it was opened at
 * and again after a resize to the other. Half the pages open at phone width, half at desktop width, so
 * a first paint at each width is seen too.
 */
test.describe('public pages at 1280 and 375 px', () => {
  ALL_PAGES.forEach(({ path, h1, key }, index) => {
    const [first, second] = index % 2 === 0 ? [DESKTOP, PHONE] : [PHONE, DESKTOP];
    test(`${path}: its h1, key content, head and footer; axe at ${first.width} then ${second.width} px`, async ({
      page,
    }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setViewportSize(first);
      await page.goto(path, { waitUntil: 'commit' });
      await appReady(page);
      expect(new URL(page.url()).pathname).toBe(path);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveText(h1);
      await expect(page.getByTestId('error-screen')).toHaveCount(0);
      await expect(page.locator('#main-content')).toHaveCount(1);
      await expect(page.locator('form[inert]')).toHaveCount(0);
      if (key) {
        await expect(page.getByText(key, { exact: false }).first()).toBeVisible();
        await expect(page).toHaveTitle(/Portale Scuole/);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        expect(description?.length).toBeGreaterThan(20);
      }
      for (const size of [first, second]) {
        if (size !== first) await resizeTo(page, size);
        if (key)
          for (const link of FOOTER_LINKS)
            await expect(page.locator('#footer').getByRole('link', { name: link })).toBeVisible();
        await expectNoAxeViolations(page);
      }
      expect(
        await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
      ).toEqual([]);
      // A prerendered page is taken over without a console error; the others may log an API refusal.
      if (PAINTED.has(path)) expect(errors).toEqual([]);
    });
  });
});

test('only the pages a guest sees the same before any API answer are in the HTML, with their own head', async ({
  request,
}) => {
  for (const { path, h1 } of PRERENDERED) {
    const html = await (await request.get(path)).text();
    expect(html, path).toMatch(/<div id="root" data-prerendered(="")?>/);
    expect(html, path).toMatch(new RegExp(`<h1[^>]*>${h1}</h1>`));
    expect(html, path).toContain('Informativa privacy');
    expect(html, path).toMatch(/<style>[^<]*Titillium Web/);
    if (path !== '/') expect(html, path).toMatch(/<title>[^<]+ \| Portale Scuole<\/title>/);
    // A form is inert, its controls disabled, until the app has taken over (nothing typed is lost).
    for (const form of html.match(/<form[^>]*>[\s\S]*?<\/form>/g) ?? []) {
      expect(form, path).toMatch(/^<form inert/);
      expect(form, path).not.toMatch(/<(input|select|textarea|button)(?![^>]*disabled)[\s>]/);
    }
  }
  for (const path of NOT_PRERENDERED)
    expect(await (await request.get(path)).text(), path).toContain('<div id="root"></div>');
  for (const path of SHELLS)
    expect(await (await request.get(path)).text(), path).toContain('Caricamento dei contenuti…');
  expect(await (await request.get('/team?x=1')).text()).toContain('<h1 class="mb-3">Team</h1>');
  for (const template of ['/prerendered/index.html', '/prerendered/team.html', '/index.html']) {
    expect(await (await request.get(template)).text()).not.toContain('%PORTALE_');
  }
});

test('the home page is taken over by the app, which fills in the live key figures from the API', async ({
  page,
}) => {
  await page.goto('/');
  await appReady(page);
  await expect(page.getByTestId('figure-institutesEnrolled')).toHaveText(/^\d[\d.]*$/);
  await expect(page.getByTestId('figure-registeredTeachers')).toHaveText(/^\d[\d.]*$/);
});

test('a prerendered form cannot be typed into before the app takes over; then it works', async ({ page }) => {
  // The app's code is held back: the page stays as the HTML painted it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/auth/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1, name: 'Accedi' })).toBeVisible();
  await expect(page.locator('#root[data-prerendered] form[inert]')).toHaveCount(1);
  await expect(page.locator('#email')).toBeDisabled();
  release();
  await page.getByLabel('Indirizzo e-mail').fill('nessuno@example.it');
  await appReady(page);
  await expect(page.getByLabel('Indirizzo e-mail')).toHaveValue('nessuno@example.it');
  await expect(page.getByLabel('Indirizzo e-mail')).toBeEnabled();
});

test('the prerendered mark leaves the page only once the app’s own markup has replaced the painted one', async ({
  page,
}) => {
  // Remembers the painted elements, then looks at the page at the moment the mark is taken off: a test
  // (or anything else) that waits for the mark must find the app's elements, not ones about to go.
  await page.addInitScript(() => {
    const painted = new WeakSet<Element>();
    const state = window as unknown as { paintedAtUnmark?: boolean };
    document.addEventListener('DOMContentLoaded', () => {
      const root = document.getElementById('root')!;
      for (const el of root.querySelectorAll('*')) painted.add(el);
      new MutationObserver(() => {
        if (root.hasAttribute('data-prerendered') || state.paintedAtUnmark !== undefined) return;
        state.paintedAtUnmark = [...root.querySelectorAll('h1, a[href]')].some((el) => painted.has(el));
      }).observe(root, { attributes: true, attributeFilter: ['data-prerendered'] });
    });
  });
  await page.goto('/landing/registrazioni/insegnante');
  await appReady(page);
  expect(
    await page.evaluate(() => (window as unknown as { paintedAtUnmark?: boolean }).paintedAtUnmark),
  ).toBe(false);
});

test('the pages that load the account contracts only when needed still answer: forgot password, email link without a token', async ({
  page,
}) => {
  await page.goto('/verifica/email-verificata');
  await appReady(page);
  await expect(
    page.getByText('Il collegamento non è valido: chiedi un nuovo messaggio di verifica.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Invia un nuovo collegamento' })).toBeVisible();
  await page.goto('/auth/forgot-password');
  await appReady(page);
  await page.getByRole('button', { name: 'Invia il collegamento' }).click();
  await expect(page.getByLabel('Indirizzo e-mail')).toHaveAttribute('aria-invalid', 'true');
});

test('a document downloads as a PDF', async ({ page }) => {
  await page.goto('/documentazione');
  const link = page.getByRole('link', { name: /Scarica il PDF «Regolamento del programma»/ });
  const response = await page.request.get((await link.getAttribute('href'))!);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test.describe.serial('contact form', () => {
  test('invalid input shows Italian errors per field and sends nothing', async ({ page }) => {
    await page.goto('/contatti');
    let posted = false;
    page.on('request', (r) => (posted ||= r.method() === 'POST' && r.url().includes('/api/public/contact')));
    await page.getByLabel('Indirizzo e-mail').fill('non-valida');
    await page.getByRole('button', { name: 'Invia il messaggio' }).click();
    await expect(page.getByRole('alert')).toContainText('Alcuni dati non sono validi');
    await expect(page.getByTestId('error-email')).toHaveText('Inserisci un indirizzo e-mail valido.');
    await expect(page.getByTestId('error-message')).toContainText('almeno 20 caratteri');
    await expect(page.getByLabel('Indirizzo e-mail')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page);
    expect(posted).toBe(false);
  });

  test('a keyboard-only visitor fills and sends the form', async ({ page }) => {
    await page.goto('/contatti');
    await appReady(page);
    await page.getByLabel('Nome e cognome').focus();
    await page.keyboard.type('Giulia Esposito');
    await page.keyboard.press('Tab');
    await page.keyboard.type('giulia.esposito@example.it');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Argomento')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Il nostro plesso ha cambiato indirizzo: come lo aggiorniamo?');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel(/Ho letto l’informativa/)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByLabel(/Ho letto l’informativa/)).toBeChecked();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Invia il messaggio' })).toBeFocused();
    const response = page.waitForResponse(
      (r) => r.url().includes('/api/public/contact') && r.request().method() === 'POST',
    );
    await page.keyboard.press('Enter');
    expect((await response).status()).toBe(202);
    await expect(
      page.getByRole('status').filter({ hasText: 'il tuo messaggio è stato inviato' }),
    ).toBeVisible();
  });

  test('valid input is accepted with a confirmation; a flood gets 429', async ({ page }) => {
    await page.goto('/contatti');
    const send = async () => {
      await page.getByLabel('Nome e cognome').fill('Marco Bianchi');
      await page.getByLabel('Indirizzo e-mail').fill('marco.bianchi@example.it');
      await page.getByLabel('Argomento').selectOption('indagine');
      await page
        .getByLabel('Messaggio')
        .fill('Vorrei sapere quando si chiude il questionario per gli insegnanti.');
      if (!(await page.getByLabel(/Ho letto l’informativa/).isChecked()))
        await page.locator('label[for="contatto-privacyAccepted"]').click({ position: { x: 10, y: 10 } });
      const response = page.waitForResponse(
        (r) => r.url().includes('/api/public/contact') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Invia il messaggio' }).click();
      const status = (await response).status();
      // The form takes in the answer just after it arrives (a success empties the fields): wait for it,
      // or the next round's typing is undone by that reset and its click sends nothing.
      await expect(page.getByRole('button', { name: 'Invia il messaggio' })).toBeEnabled();
      if (status === 202) await expect(page.getByLabel('Nome e cognome')).toHaveValue('');
      return status;
    };
    expect(await send()).toBe(202);
    await expect(
      page.getByRole('status').filter({ hasText: 'il tuo messaggio è stato inviato' }),
    ).toBeVisible();
    let status = 202;
    for (let i = 0; i < 6 && status === 202; i++) status = await send();
    expect(status).toBe(429);
    await expect(page.getByRole('alert')).toHaveText(
      'Hai inviato troppi messaggi in poco tempo. Riprova tra qualche minuto.',
    );
  });
});

test('a phone never scrolls sideways while the web fonts load (the fallback font is wider)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.route(/\.woff2?$/, (route) => route.abort());
  for (const path of ['/', '/dichiarazione-accessibilita', '/auth/login']) {
    await page.goto(path);
    await appReady(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(
      true,
    );
  }
});

test('nothing moves when the web fonts come in: the fallback font has their metrics', async ({ browser }) => {
  // Where each heading, paragraph and link of a phone's first screen is, drawn in the fallback (web fonts
  // refused) and in Titillium Web: a page whose first paint was in the fallback would shift by the difference.
  const positions = async (path: string, withFonts: boolean) => {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    const page = await context.newPage();
    if (!withFonts) await page.route(/\.woff2?$/, (route) => route.abort());
    await page.goto(path);
    await appReady(page);
    await page.evaluate(() => document.fonts.ready);
    const boxes = await page.evaluate(() =>
      [...document.querySelectorAll('main h1, main h2, main p, main a, nav a, footer h2')]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.top < window.innerHeight)
        .map((r) => Math.round(r.top)),
    );
    await context.close();
    return boxes;
  };
  for (const path of ['/', '/edu', '/auth/login']) {
    const [fallback, web] = [await positions(path, false), await positions(path, true)];
    expect(fallback.length, path).toBe(web.length);
    const moved = fallback.map((top, i) => Math.abs(top - web[i]!));
    expect(Math.max(...moved), `${path}: ${JSON.stringify({ fallback, web })}`).toBeLessThanOrEqual(4);
  }
});
