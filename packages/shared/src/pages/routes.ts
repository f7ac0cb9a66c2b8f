import type { AccessRule } from '../auth/roles.ts';
import type { GuardName } from './guards.ts';

export type Layout = 'default' | 'authenticated';

export interface PageDef<I extends string = string> {
  /** Stable id, used by the API (`/api/portal/pages/:pageId`) and the tests. */
  id: I;
  /** React Router pattern; params name the entity. */
  path: string;
  layout: Layout;
  title: string;
  /** One sentence on what the page is for (meta description and page frame). */
  description: string;
  guards: readonly GuardName[];
  access?: AccessRule;
  /** Breadcrumb parent page id. */
  parent?: string;
  /** Label in the portal side navigation; pages with params are not listed. */
  navLabel?: string;
}

const STAFF: AccessRule = { roles: ['super-admin', 'sylla', 'cromos'], permissions: [] };
const DETECTOR: AccessRule = { roles: ['super-admin', 'detector'], permissions: [] };
const USERS: AccessRule = { roles: ['super-admin', 'cromos'], permissions: ['user.index'] };
const PORTAL_GUARDS = [
  'auth',
  'update-password',
  'has-verified-all-contacts',
  'sign-principal-document',
] as const satisfies readonly GuardName[];
const RESTRICTED = [...PORTAL_GUARDS, 'has-role-or-permission'] as const satisfies readonly GuardName[];

function portal<const I extends string>(
  id: I,
  path: string,
  title: string,
  description: string,
  access: AccessRule,
  extra: Partial<Omit<PageDef, 'id'>> = {},
): PageDef<I> {
  return {
    id,
    path,
    layout: 'authenticated',
    title,
    description,
    guards: RESTRICTED,
    access,
    parent: 'portal.home',
    ...extra,
  };
}

function pub<const I extends string>(
  id: I,
  path: string,
  title: string,
  description: string,
  extra: Partial<Omit<PageDef, 'id'>> = {},
): PageDef<I> {
  return { id, path, layout: 'default', title, description, guards: [], ...extra };
}

/** The route table, as written: `PAGES` below is its typed face. */
const PAGE_LIST = [
  pub('home', '/', 'Portale Scuole', 'Il programma nazionale di indagine nelle scuole italiane.'),
  pub(
    'access-code',
    '/:token',
    'Codice di accesso',
    'Accesso al questionario con il codice ricevuto dalla scuola.',
  ),
  pub('auth.login', '/auth/login', 'Accedi', 'Accedi al portale con le tue credenziali.', {
    guards: ['unauth'],
  }),
  pub(
    'auth.identity',
    '/auth/identita',
    'Accesso con CIE',
    'L’esito dell’accesso con la Carta d’identità elettronica.',
  ),
  pub(
    'auth.forgot-password',
    '/auth/forgot-password',
    'Password dimenticata',
    'Ricevi per e-mail il link per impostare una nuova password.',
    { guards: ['unauth'] },
  ),
  pub(
    'auth.reset-password',
    '/auth/reset-password',
    'Imposta una nuova password',
    'Scegli una nuova password con il link ricevuto per e-mail.',
    { guards: ['unauth'] },
  ),
  pub(
    'auth.change-password',
    '/auth/cambia-password',
    'Cambia la password',
    'Prima di continuare devi scegliere una nuova password.',
    { guards: ['auth'] },
  ),
  pub(
    'auth.complete-registration',
    '/auth/completa-registrazione',
    'Completa la registrazione',
    'Completa il profilo e verifica i tuoi recapiti per usare il portale.',
    { guards: ['auth', 'update-password'] },
  ),
  pub('contacts', '/contatti', 'Contatti', 'Come raggiungere il gruppo di lavoro del programma.'),
  pub('documentation', '/documentazione', 'Documentazione', 'I documenti pubblicati del programma.'),
  pub('edu', '/edu', 'Area educatori', "L'area dedicata a educatrici ed educatori."),
  pub('survey', '/indagine', 'Indagine', "L'indagine in corso: scopo, partecipanti e date."),
  pub(
    'cookie-policy',
    '/policy/cookie',
    'Cookie policy',
    'I cookie usati dal sito e come cambiare la tua scelta.',
  ),
  pub(
    'bookings',
    '/prenotazioni',
    'Prenotazioni',
    'Gli appuntamenti del programma e come prenotare un posto.',
  ),
  pub('results', '/risultati', 'Risultati', 'I risultati aggregati delle indagini concluse.'),
  pub(
    'results.methodology',
    '/risultati/metodologia',
    'Come proteggiamo i risultati',
    'Quali numeri dei risultati non pubblichiamo, perché, e come riconoscerli.',
    { parent: 'results' },
  ),
  pub('team', '/team', 'Team', 'Le organizzazioni partner e i ruoli del programma.'),
  pub(
    'email-verified',
    '/verifica/email-verificata',
    'Verifica e-mail',
    "L'esito della verifica del tuo indirizzo e-mail.",
  ),
  pub(
    'enrolment',
    '/iscrizioni/iscrizione',
    'Iscrizione della scuola',
    'Iscrivi il tuo istituto al programma.',
    { guards: ['must-have-verified-phone-on-query-param'] },
  ),
  pub(
    'landing.actions',
    '/landing/azioni',
    'Le azioni del programma',
    'Le attività proposte alle scuole che partecipano.',
  ),
  pub('landing.edu', '/landing/edu', 'Educatori', 'Come partecipano educatrici ed educatori.'),
  pub(
    'landing.registration.other',
    '/landing/registrazioni/altro',
    'Registrazione: altri partecipanti',
    'Registrati se partecipi al programma con un altro ruolo.',
  ),
  pub(
    'landing.registration.educator',
    '/landing/registrazioni/educatore',
    'Registrazione educatori',
    'Registrati come educatrice o educatore.',
  ),
  pub(
    'landing.registration.teacher',
    '/landing/registrazioni/insegnante',
    'Registrazione insegnanti',
    'Registrati come insegnante.',
  ),
  pub(
    'privacy',
    '/privacy',
    'Informativa sulla privacy',
    'Come il programma tratta i dati personali di chi visita il sito e di chi partecipa.',
  ),
  pub(
    'legal-notes',
    '/note-legali',
    'Note legali',
    'Condizioni di uso del sito, diritti sui contenuti e responsabilità.',
  ),
  pub(
    'accessibility',
    '/dichiarazione-accessibilita',
    'Dichiarazione di accessibilità',
    'Lo stato di conformità del sito ai requisiti di accessibilità e come segnalarci un problema.',
  ),
  pub(
    'test-char',
    '/test-char-9534310001a',
    'Pagina di prova',
    'Informazioni diagnostiche sulla versione del portale.',
  ),
  {
    id: 'adhesion',
    path: '/iscrizioni/adesione-formale',
    layout: 'default',
    title: 'Adesione formale',
    description:
      "Il documento di adesione dell'istituto al programma, da firmare a cura del dirigente scolastico.",
    guards: ['auth', 'update-password', 'has-role-or-permission'],
    access: { roles: ['school.principal', 'institute.first-contact'], permissions: [] },
  },
  {
    id: 'portal.home',
    path: '/portale',
    layout: 'authenticated',
    title: 'Portale',
    description: 'La tua area riservata.',
    guards: PORTAL_GUARDS,
    navLabel: 'Home del portale',
  },
  {
    // Not a seed route (issue 4): any logged-in user's sessions and personal data; no role rule.
    id: 'portal.account',
    path: '/portale/account',
    layout: 'authenticated',
    title: 'Il mio account',
    description:
      'Le tue sessioni attive, il codice fiscale, la copia dei tuoi dati e la richiesta di cancellazione dell’account.',
    guards: PORTAL_GUARDS,
    navLabel: 'Il mio account',
    parent: 'portal.home',
  },
  portal(
    'portal.adhesions-panel',
    '/portale/adesioni/panel',
    'Pannello adesioni',
    'Gli istituti per stato di adesione, con filtri, solleciti ed esportazione.',
    { roles: ['super-admin', 'cromos', 'sylla'], permissions: ['user.index'] },
    { navLabel: 'Adesioni' },
  ),
  // Not a seed route (issue 32): the invitations of existing accounts named in an enrolment; read like the adhesions panel, sent again or cancelled by those who manage adhesions.
  portal(
    'portal.enrolment-invitations',
    '/portale/adesioni/inviti',
    'Inviti di iscrizione',
    'Gli inviti ad account già registrati nominati in un’iscrizione: stato, scadenza, nuovo invio e annullamento.',
    { roles: ['super-admin', 'cromos', 'sylla'], permissions: ['user.index'] },
    { navLabel: 'Inviti di iscrizione' },
  ),
  portal(
    'portal.progress',
    '/portale/avanzamento',
    'Avanzamento',
    "L'avanzamento del programma per regione e per stato, nel tempo.",
    STAFF,
    { navLabel: 'Avanzamento' },
  ),
  portal(
    'portal.actions',
    '/portale/azioni',
    'Azioni',
    'Le azioni assegnate a istituti, plessi e insegnanti, con il loro stato.',
    STAFF,
    { navLabel: 'Azioni' },
  ),
  portal(
    'portal.action-models',
    '/portale/azioni-modelli',
    'Modelli di azione',
    'I modelli da cui si creano le azioni.',
    { roles: ['super-admin'], permissions: [] },
    { navLabel: 'Modelli di azione' },
  ),
  portal(
    'portal.teachers',
    '/portale/insegnanti',
    'Insegnanti',
    'Insegnanti ed educatori registrati, con filtri ed esportazione.',
    STAFF,
    { navLabel: 'Insegnanti' },
  ),
  portal(
    'portal.institutes',
    '/portale/istituti',
    'Istituti',
    "Gli istituti dell'anagrafe nazionale, con ricerca e filtri.",
    STAFF,
    { navLabel: 'Istituti' },
  ),
  portal(
    'portal.institute',
    '/portale/istituti/:instituteId',
    'Istituto',
    "La scheda dell'istituto: dati, plessi, persone, azioni e storico.",
    STAFF,
    { parent: 'portal.institutes' },
  ),
  portal(
    'portal.sites',
    '/portale/istituti/plessi',
    'Plessi',
    'I plessi scolastici, con ricerca e filtri.',
    STAFF,
    { navLabel: 'Plessi' },
  ),
  portal(
    'portal.site',
    '/portale/istituti/plessi/:siteId',
    'Plesso',
    'La scheda del plesso: dati, insegnanti e visite.',
    STAFF,
    { parent: 'portal.sites' },
  ),
  portal(
    'portal.site-teachers',
    '/portale/istituti/plessi/:siteId/insegnanti',
    'Insegnanti del plesso',
    'Gli insegnanti che partecipano dal plesso.',
    DETECTOR,
    { parent: 'portal.detector-sites' },
  ),
  portal(
    'portal.site-visits',
    '/portale/istituti/plessi/:siteId/visite',
    'Visite al plesso',
    'Le visite pianificate e svolte presso il plesso.',
    DETECTOR,
    { parent: 'portal.detector-sites' },
  ),
  portal(
    'portal.detector-sites',
    '/portale/istituti/rilevatori/plessi',
    'I miei plessi',
    'I plessi assegnati al rilevatore.',
    DETECTOR,
    { navLabel: 'I miei plessi' },
  ),
  portal(
    'portal.detector-site',
    '/portale/istituti/rilevatori/plessi/:siteId',
    'Plesso assegnato',
    'Un plesso assegnato al rilevatore.',
    DETECTOR,
    { parent: 'portal.detector-sites' },
  ),
  portal(
    'portal.map',
    '/portale/mappa',
    'Mappa',
    "Tutti i plessi sulla mappa d'Italia, raggruppati e colorati per stato.",
    STAFF,
    { navLabel: 'Mappa' },
  ),
  portal(
    'portal.reviews',
    '/portale/revisioni/:reviewType',
    'Revisioni',
    'La coda delle revisioni di un tipo, con i conteggi per stato.',
    { roles: ['super-admin', 'cromos', 'sylla'], permissions: ['user.index'] },
  ),
  portal(
    'portal.review',
    '/portale/revisioni/:reviewType/revisione',
    'Revisione',
    'La revisione degli elementi in coda, uno alla volta.',
    STAFF,
    { parent: 'portal.reviews' },
  ),
  // Not seed routes (issue 12, decision 014): the staff's bookings and documents, with the same rule as the other staff lists.
  portal(
    'portal.bookings',
    '/portale/prenotazioni',
    'Prenotazioni',
    'Gli appuntamenti prenotabili dal sito: creazione, modifica, pubblicazione e prenotazioni ricevute.',
    STAFF,
    { navLabel: 'Prenotazioni' },
  ),
  portal(
    'portal.booking-slot',
    '/portale/prenotazioni/:slotId',
    'Appuntamento',
    "L'appuntamento e le sue prenotazioni, con ricerca ed esportazione.",
    STAFF,
    { parent: 'portal.bookings' },
  ),
  portal(
    'portal.documents',
    '/portale/documenti',
    'Documenti',
    'I documenti della pagina Documentazione: caricamento dei PDF, sostituzione, pubblicazione e ritiro.',
    STAFF,
    { navLabel: 'Documenti' },
  ),
  portal(
    'portal.document',
    '/portale/documenti/:documentId',
    'Documento',
    'Il documento: anteprima, pubblicazione, dati e sostituzione del file.',
    STAFF,
    { parent: 'portal.documents' },
  ),
  // Not seed routes (issue 12): the staff build the surveys, open and close them, with the same rule as the other staff lists.
  portal(
    'portal.surveys',
    '/portale/indagini',
    'Indagini',
    'Le indagini del programma: domande, date, apertura e chiusura.',
    STAFF,
    { navLabel: 'Indagini' },
  ),
  portal(
    'portal.survey',
    '/portale/indagini/:surveyId',
    'Indagine',
    "L'indagine: dati, domande e loro ordine, stato e risposte raccolte.",
    STAFF,
    { parent: 'portal.surveys' },
  ),
  portal(
    'portal.detectors',
    '/portale/rilevatori',
    'Rilevatori',
    'I rilevatori, le loro province e i plessi assegnati.',
    STAFF,
    { navLabel: 'Rilevatori' },
  ),
  portal(
    'portal.substitutions',
    '/portale/sostituzioni',
    'Sostituzioni',
    'Le richieste di sostituzione degli insegnanti e le decisioni.',
    { roles: ['super-admin', 'sylla'], permissions: [] },
    { navLabel: 'Sostituzioni' },
  ),
  portal(
    'portal.templates',
    '/portale/template',
    'Template',
    'I modelli dei messaggi e dei documenti, con anteprima e versioni.',
    { roles: ['super-admin'], permissions: [] },
    { navLabel: 'Template' },
  ),
  portal(
    'portal.users',
    '/portale/utenti',
    'Utenti',
    'Gli utenti del portale, i loro ruoli e permessi.',
    USERS,
    { navLabel: 'Utenti' },
  ),
  // Not a seed route (issue 7): one user's page, with the same rule as the list.
  portal(
    'portal.user',
    '/portale/utenti/:userId',
    'Utente',
    "La scheda dell'utente: dati, ruoli, permessi, sicurezza dell'accesso e storico.",
    USERS,
    { parent: 'portal.users' },
  ),
] as const;

/** The id of a page of the route table: a typo in a page id fails `tsc` (issue 36). */
export type PageId = (typeof PAGE_LIST)[number]['id'];

/** Every route of seed-spec §2 with its guards and access rule (seed-spec §6): the one source of truth. */
export const PAGES: readonly PageDef<PageId>[] = PAGE_LIST;

/** Review types of product §3; any other `{type}` is a 404. */
export const REVIEW_TYPES = ['insegnanti', 'adesioni', 'visite'] as const;
export type ReviewType = (typeof REVIEW_TYPES)[number];
export const REVIEW_TYPE_LABELS: Record<ReviewType, string> = {
  insegnanti: 'Registrazioni di insegnanti ed educatori',
  adesioni: 'Adesioni firmate',
  visite: 'Rapporti di visita',
};

const byId = new Map<string, PageDef<PageId>>(PAGES.map((p) => [p.id, p]));

/** Whether a string from outside the code (a URL, a route's handle) names a page. */
export function isPageId(id: string): id is PageId {
  return byId.has(id);
}

/** The page with this id; throws for an unknown id (a programming error). */
export function getPage(id: PageId): PageDef<PageId> {
  const page = byId.get(id);
  if (!page) throw new Error(`Unknown page id: ${id}`);
  return page;
}

/** Fills a pattern's params: href('portal.institute', { instituteId: 5 }) → '/portale/istituti/5'. */
export function href(id: PageId, params: Record<string, string | number> = {}): string {
  return getPage(id).path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`Missing param ${key} for ${id}`);
    return encodeURIComponent(String(value));
  });
}

/** The breadcrumb trail of a page, root first (the page itself last). */
export function breadcrumbOf(id: PageId): PageDef<PageId>[] {
  const trail: PageDef<PageId>[] = [];
  for (
    let page: PageDef<PageId> | undefined = getPage(id);
    page;
    page = page.parent && isPageId(page.parent) ? getPage(page.parent) : undefined
  ) {
    trail.unshift(page);
  }
  return trail;
}

/** Canonical redirect targets of the guards (seed-spec §2). */
export const REDIRECTS = {
  login: '/auth/login',
  home: '/portale',
  logout: '/',
  changePassword: '/auth/cambia-password',
  completeRegistration: '/auth/completa-registrazione',
  signPrincipalDocument: '/iscrizioni/adesione-formale',
  enrolment: '/iscrizioni/iscrizione',
} as const;
