import { z } from 'zod';

/** The one error shape of the API: an Italian `message`, a stable `code`, per-field errors on 422. */
export const ApiErrorBodySchema = z.object({
  statusCode: z.number().int(),
  code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

/** Italian messages shared by API and web. */
export const ERROR_MESSAGES = {
  badCredentials: 'Le credenziali inserite non sono corrette.',
  tooManyAttempts: 'Troppi tentativi di accesso. Riprova tra qualche minuto.',
  accountLocked: "Per troppi tentativi non riusciti l'accesso è bloccato per 15 minuti.",
  csrf: 'La pagina è scaduta per motivi di sicurezza. Ricarica la pagina e riprova.',
  unauthenticated: 'Sessione assente o scaduta: accedi di nuovo.',
  validation: 'Alcuni dati non sono validi. Controlla i campi evidenziati.',
  notFound: 'La risorsa richiesta non esiste.',
  internal: 'Si è verificato un problema imprevisto. Riprova più tardi.',
  rateLimited: 'Hai effettuato troppe richieste. Riprova tra poco.',
  unsupportedMediaType: 'Formato della richiesta non supportato: invia i dati in JSON.',
  timeout: 'Il server non ha risposto in tempo. Riprova.',
  network: 'Impossibile contattare il server. Controlla la connessione e riprova.',
} as const;

/** Seed-spec §8 texts, quoted exactly. */
export const SEED_ERRORS = {
  expiredSession: 'Both token and refresh token have expired. Your request was aborted.',
  missingUserField: 'User Data response does not contain field user',
  pageNotFound: (path: string) => `Page not found: ${path}`,
  tokenNotFound: (path: string) => `Page Not Found: ${path}`,
} as const;

/** HTTP client defaults of seed-spec §7. */
export const HTTP_DEFAULTS = {
  retry: 1,
  retryStatusCodes: [408, 409, 425, 429, 500, 502, 503, 504] as readonly number[],
  idempotentMethods: ['GET', 'HEAD', 'OPTIONS'] as readonly string[],
  timeoutMs: 25_000,
  serverTimeoutMs: 10_000,
  accept: 'application/json, text/plain, */*',
  xsrfCookie: 'XSRF-TOKEN',
  xsrfHeader: 'X-XSRF-TOKEN',
} as const;
