import { z } from 'zod';

export const IDENTITY_PROVIDER_NAMES = ['cie', 'spid'] as const;
export type IdentityProviderName = (typeof IDENTITY_PROVIDER_NAMES)[number];

/** How a person reads each provider's name in a sentence («verificata con CIE»). */
export const IDENTITY_PROVIDER_SHORT_LABELS: Record<IdentityProviderName, string> = {
  cie: 'CIE',
  spid: 'SPID',
};

/** One SPID identity provider of the configuration (decision 052): its SAML entity id and its name. */
export const SpidProviderSchema = z.object({ id: z.string(), name: z.string() });
export type SpidProvider = z.infer<typeof SpidProviderSchema>;

/** Which providers this instance offers (configuration alone switches each on, decisions 048, 052). */
export const IdentityProvidersSchema = z.object({
  cie: z.boolean(),
  spid: z.boolean(),
  /** The SPID identity providers the chooser lists (empty while SPID is not configured). */
  spidProviders: z.array(SpidProviderSchema),
  /** CIE and SPID are `npm start`'s local test providers (development): the login pages say so. */
  testProviders: z.boolean(),
});
export type IdentityProviders = z.infer<typeof IdentityProvidersSchema>;

/**
 * The authorization response a provider sends back to the callback: `code`, `state` and `iss`
 * (RFC 9207), or `error`. Every field optional here: a missing one is an audited failure, not a 400.
 */
export const IdentityCallbackQuerySchema = z.object({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** The SPID login's start: the identity provider the user chose in the AgID button's menu. */
export const SpidStartQuerySchema = z.object({
  idp: z.string({ error: 'Scegli il gestore dell’identità SPID.' }).min(1).max(1024),
});

/**
 * The SAML response an identity provider posts to our assertion consumer service (HTTP-POST binding,
 * a form). Optional here: a missing one is an audited failure, not a 400.
 */
export const SpidAcsBodySchema = z.object({
  SAMLResponse: z.string().max(300_000).optional(),
  RelayState: z.string().max(80).optional(),
});

/**
 * What an identity provider sends to our single logout service (SAML HTTP-Redirect binding): its
 * LogoutResponse to ours (`SAMLResponse`) or its own LogoutRequest (`SAMLRequest`), signed in the
 * query. Optional here: a missing or bad one is an audited failure, not a 400.
 */
export const SpidLogoutQuerySchema = z.object({
  SAMLRequest: z.string().max(100_000).optional(),
  SAMLResponse: z.string().max(100_000).optional(),
  RelayState: z.string().max(80).optional(),
  SigAlg: z.string().max(200).optional(),
  Signature: z.string().max(2048).optional(),
});

/** A verified identity waiting for a link (password) or a registration (decision 048). */
export const PendingIdentitySchema = z.object({
  provider: z.enum(IDENTITY_PROVIDER_NAMES),
  /** `link`: an account has this codice fiscale, self-declared; `register`: no account has it. */
  kind: z.enum(['link', 'register']),
  firstName: z.string(),
  lastName: z.string(),
  taxCode: z.string(),
  /** The account's e-mail with most of it hidden (`m***@scuola.it`), for `link` only. */
  accountEmailHint: z.string().nullable(),
  /**
   * The e-mail and mobile phone the provider gave, for the registration's prefill (`register` only;
   * SPID may give them, CIE never gives an e-mail). The person can change them there.
   */
  email: z.string().nullable(),
  phone: z.string().nullable(),
  /** `link` only: the account's e-mail is confirmed, so a code sent there can prove the account too. */
  codeAvailable: z.boolean(),
  expiresAt: z.string(),
});
export type PendingIdentity = z.infer<typeof PendingIdentitySchema>;

/** The proof by a code sent to the account's confirmed e-mail (instead of its password). */
export const IdentityLinkCodeBodySchema = z.object({
  code: z
    .string({ error: 'Inserisci il codice ricevuto per e-mail.' })
    .trim()
    .regex(/^\d{6}$/, 'Il codice è di 6 cifre: controlla il messaggio ricevuto.'),
});
export type IdentityLinkCodeBody = z.infer<typeof IdentityLinkCodeBodySchema>;

export const IdentityLinkCodeSentSchema = z.object({
  /** Where the code went, mostly hidden (`m***@scuola.it`). */
  sentTo: z.string(),
  /** Minutes the code holds. */
  validMinutes: z.number().int(),
});
export type IdentityLinkCodeSent = z.infer<typeof IdentityLinkCodeSentSchema>;

export const IdentityLinkBodySchema = z.object({
  password: z.string({ error: 'Inserisci la password.' }).min(1, 'Inserisci la password.').max(1024),
});
export type IdentityLinkBody = z.infer<typeof IdentityLinkBodySchema>;

export const LinkedIdentitySchema = z.object({
  provider: z.enum(IDENTITY_PROVIDER_NAMES),
  taxCode: z.string(),
  acr: z.string().nullable(),
  linkedAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export const LinkedIdentitiesSchema = z.object({
  identities: z.array(LinkedIdentitySchema),
  taxCodeVerifiedAt: z.string().nullable(),
  taxCodeVerifiedSource: z.enum(IDENTITY_PROVIDER_NAMES).nullable(),
});
export type LinkedIdentities = z.infer<typeof LinkedIdentitiesSchema>;

/**
 * Why a login through an identity provider ended without a session: the callback sends the browser
 * to the web's result page with one of these codes, which shows its Italian message (decision 048).
 */
export const IDENTITY_FAILURES = {
  state_missing:
    'La risposta del gestore dell’identità non corrisponde a un accesso avviato da questo browser. Riprova dall’inizio.',
  state_unknown:
    'La risposta del gestore dell’identità non corrisponde a nessun accesso avviato. Riprova dall’inizio.',
  state_replayed: 'Questa risposta del gestore dell’identità è già stata usata. Riprova dall’inizio.',
  state_expired: 'L’accesso è scaduto prima del ritorno dal gestore dell’identità. Riprova dall’inizio.',
  browser_mismatch: 'L’accesso è stato avviato da un altro browser. Riprova dall’inizio da questo browser.',
  provider_error: 'Il gestore dell’identità non ha completato l’accesso (annullato o rifiutato).',
  issuer_missing:
    'La risposta del gestore dell’identità non dice chi l’ha emessa: per sicurezza l’accesso è rifiutato.',
  issuer_mismatch:
    'La risposta non viene dal gestore dell’identità atteso: per sicurezza l’accesso è rifiutato.',
  token_invalid:
    'Il gestore dell’identità ha risposto con dati non validi (token o nonce): per sicurezza l’accesso è rifiutato.',
  provider_unreachable: 'Il gestore dell’identità non risponde. Riprova tra qualche minuto.',
  saml_invalid:
    'La risposta del gestore SPID non è leggibile (non è una risposta SAML valida): l’accesso è rifiutato.',
  signature_invalid:
    'La risposta del gestore SPID non è firmata o la firma non è valida: per sicurezza l’accesso è rifiutato.',
  audience_invalid:
    'La risposta del gestore SPID è destinata a un altro servizio: per sicurezza l’accesso è rifiutato.',
  destination_invalid:
    'La risposta del gestore SPID è indirizzata a un altro indirizzo: per sicurezza l’accesso è rifiutato.',
  assertion_expired:
    'La risposta del gestore SPID è scaduta o non ancora valida. Riprova l’accesso dall’inizio.',
  level_insufficient: 'Serve un accesso di livello 2 o superiore (CIE o SPID con codice temporaneo).',
  fiscal_number_invalid:
    'Il gestore dell’identità non ha fornito un codice fiscale valido: non è possibile accedere.',
  identity_mismatch:
    'Nome, cognome o data di nascita dell’identità non corrispondono all’account con questo codice fiscale. Lo staff è stato avvisato: scrivi dalla pagina Contatti se serve aiuto.',
  account_ambiguous: 'Più account hanno questo codice fiscale: lo staff è stato avvisato e ti contatterà.',
  account_suspended: 'L’account con questo codice fiscale è sospeso.',
  // The CIE OpenID Connect Federation (decision 056).
  trust_chain_invalid:
    'Il gestore CIE non risulta iscritto alla federazione CIE (catena di fiducia non valida): per sicurezza l’accesso è rifiutato.',
  authority_hints_invalid:
    'Il gestore CIE indica un’autorità di federazione che non lo riconosce: per sicurezza l’accesso è rifiutato.',
  trust_mark_invalid:
    'Il marchio di fiducia del gestore CIE è mancante, scaduto o revocato: per sicurezza l’accesso è rifiutato.',
  userinfo_unencrypted:
    'Il gestore CIE ha inviato i dati della persona senza cifrarli: per sicurezza l’accesso è rifiutato.',
  id_token_unencrypted:
    'Il gestore CIE ha inviato il token di identità senza cifrarlo: per sicurezza l’accesso è rifiutato.',
} as const;
export type IdentityFailure = keyof typeof IDENTITY_FAILURES;

const NOT_CONFIRMED =
  'Sei uscito dal portale, ma il gestore SPID non ha confermato la fine della sua sessione: per sicurezza chiudi il browser.';

/**
 * Why the return from a SPID single logout failed (decision 052): the browser goes to the result page
 * with `?esito=uscita&codice=`. The portal's own session was already ended; only the provider's is
 * uncertain.
 */
export const SPID_LOGOUT_FAILURES = {
  logout_invalid: `La risposta del gestore SPID all’uscita non è leggibile. ${NOT_CONFIRMED}`,
  logout_unknown: `La risposta del gestore SPID non corrisponde a nessuna uscita avviata. ${NOT_CONFIRMED}`,
  logout_replayed: 'Questa risposta del gestore SPID all’uscita è già stata usata. Sei uscito dal portale.',
  logout_expired: `La risposta del gestore SPID all’uscita è arrivata troppo tardi. ${NOT_CONFIRMED}`,
  logout_issuer_mismatch: `Il messaggio di uscita non viene dal gestore SPID atteso: è stato ignorato. ${NOT_CONFIRMED}`,
  logout_destination_invalid: `Il messaggio di uscita del gestore SPID è indirizzato a un altro servizio: è stato ignorato. ${NOT_CONFIRMED}`,
  logout_signature_invalid: `Il messaggio di uscita del gestore SPID non è firmato o la firma non è valida: è stato ignorato. ${NOT_CONFIRMED}`,
  logout_provider_error: `Il gestore SPID non è riuscito a chiudere la sua sessione. ${NOT_CONFIRMED}`,
  logout_provider_unreachable: `I dati del gestore SPID non sono disponibili. ${NOT_CONFIRMED}`,
} as const;
export type SpidLogoutFailure = keyof typeof SPID_LOGOUT_FAILURES;

/** The outcomes of the callback (and of a SPID logout's return), as the web's result page reads them (`?esito=`). */
export const IDENTITY_OUTCOMES = ['accesso', 'collega', 'registrazione', 'errore', 'uscita'] as const;
export type IdentityOutcome = (typeof IDENTITY_OUTCOMES)[number];

/** The web page the callback sends the browser to. */
export const IDENTITY_RESULT_PATH = '/auth/identita';
/** The query that brings the registration from the result page, naming the provider (`?identita=spid`). */
export const VERIFIED_IDENTITY_QUERY = 'identita';

/** The authentication levels accepted (level 2 and 3 of SPID; CIE answers with the same URIs). */
export const ACR_LEVEL_2 = 'https://www.spid.gov.it/SpidL2';
export const ACCEPTED_ACR = [ACR_LEVEL_2, 'https://www.spid.gov.it/SpidL3'] as const;
