import { z } from 'zod';
import { ApiErrorBodySchema, type Endpoint } from '@portale/shared/http';

/**
 * What the OpenAPI document says of an operation beyond its success body (issue 34 §9): its security,
 * an operationId, the error answers it can give (one shared error shape), and the media types of a
 * file it answers or receives. `registerEndpoint` writes these hints into the route schema as
 * `x-portale`; `documentOperations` (the swagger plugin's `transformObject`) turns them into
 * OpenAPI and removes the key.
 */
export interface OperationHints {
  errors: number[];
  download?: readonly string[];
  upload?: readonly string[];
  /** Request headers of a protocol route (tus): name → JSON schema, all required. */
  headers?: Record<string, Record<string, unknown>>;
  /** Headers of its success answer: name → description. */
  responseHeaders?: Readonly<Record<string, string>>;
}

export const HINTS_KEY = 'x-portale';

const EXPORT_MEDIA = [
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

/** `GET /api/institutes/:instituteId/adhesion` → `getApiInstitutesByInstituteIdAdhesion`. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** Whether the contract's query has the export `format` (csv | xlsx): a list export. */
function isListExport(endpoint: Endpoint): boolean {
  const shape = (endpoint.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Boolean(shape && 'format' in shape);
}

/** The hints of one contract; a download whose media types cannot be told is a programming error. */
export function operationHints(endpoint: Endpoint, unsafe: boolean): OperationHints {
  const { permission } = endpoint;
  const hasInput = Boolean(endpoint.params || endpoint.query || endpoint.body || endpoint.media?.request);
  const errors = new Set<number>([400, 429]);
  if (permission !== 'public') errors.add(401);
  if (permission !== 'public' && permission !== 'signed-in' && permission !== 'signed-in-pending-password')
    errors.add(403);
  if (endpoint.params) errors.add(404);
  // A write can meet the record in another state (a decision already taken, a slot just filled).
  if (unsafe) errors.add(409).add(419);
  for (const status of endpoint.errors ?? []) errors.add(status);
  if (hasInput) errors.add(422);
  if (endpoint.media?.request) errors.add(413).add(415);
  const download = endpoint.download
    ? (endpoint.media?.response ?? (isListExport(endpoint) ? EXPORT_MEDIA : undefined))
    : undefined;
  if (endpoint.download && !download)
    throw new Error(
      `${endpoint.method} ${endpoint.path}: a download must name its media types (media.response)`,
    );
  const headers = endpoint.headers
    ? (
        z.toJSONSchema(endpoint.headers, { target: 'openapi-3.0' }) as {
          properties?: Record<string, Record<string, unknown>>;
        }
      ).properties
    : undefined;
  return {
    errors: [...errors].sort((a, b) => a - b),
    ...(download ? { download } : {}),
    ...(endpoint.media?.request ? { upload: endpoint.media.request } : {}),
    ...(headers ? { headers } : {}),
    ...(endpoint.responseHeaders ? { responseHeaders: endpoint.responseHeaders } : {}),
  };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Richiesta non valida (campi non previsti, corpo non leggibile)',
  401: 'Sessione assente o scaduta',
  403: 'Permesso negato, o condizione del portale da completare',
  404: 'Risorsa inesistente o non visibile',
  409: 'In conflitto con lo stato attuale della risorsa',
  410: 'Risorsa non più disponibile (un caricamento scaduto)',
  412: 'Versione del protocollo non supportata (tus: `Tus-Resumable`)',
  413: 'File troppo grande',
  415: 'Formato del file non accettato',
  419: 'Token XSRF assente o non valido (ricaricare la pagina)',
  422: 'Dati non validi: `errors` elenca i messaggi per campo',
  429: 'Troppe richieste: riprovare dopo `Retry-After` secondi',
  503: 'Servizio momentaneamente non disponibile (un servizio esterno non risponde): riprovare più tardi',
};

type Operation = Record<string, unknown> & { responses?: Record<string, unknown>; requestBody?: unknown };
type Document = Record<string, unknown> & {
  paths?: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
};

const errorRef = { $ref: '#/components/schemas/ApiError' };
const binary = { type: 'string', format: 'binary' };

/** Completes the document from each operation's hints: error answers, file bodies, servers, the error schema. */
export function documentOperations(document: Document): Document {
  document.servers = [{ url: '/', description: 'Questa istanza del Portale Scuole' }];
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      ApiError: z.toJSONSchema(ApiErrorBodySchema, { target: 'openapi-3.0' }),
    },
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const [method, documented] of Object.entries(item)) {
      // A GET route that also answers HEAD is documented twice (one object): the HEAD gets an id of its own.
      const operation =
        method === 'head'
          ? (item[method] = {
              ...documented,
              // (@fastify/swagger suffixes a HEAD route's own id with `-head`.)
              operationId: String(documented.operationId)
                .replace(/-head$/, '')
                .replace(/^get/, 'head'),
            })
          : documented;
      const hints = operation[HINTS_KEY] as OperationHints | undefined;
      delete operation[HINTS_KEY];
      if (!hints) continue;
      const responses = (operation.responses ??= {});
      if (hints.download) {
        const [status] = Object.keys(responses).filter((s) => s.startsWith('2'));
        responses[status ?? '200'] = {
          description: 'Il file richiesto',
          content: Object.fromEntries(hints.download.map((type) => [type, { schema: binary }])),
        };
      }
      if (hints.headers) {
        const parameters = (operation.parameters ??= []) as Record<string, unknown>[];
        for (const [name, schema] of Object.entries(hints.headers)) {
          const { description, ...rest } = schema;
          parameters.push({ name, in: 'header', required: true, description, schema: rest });
        }
      }
      if (hints.responseHeaders) {
        const [status] = Object.keys(responses).filter((s) => s.startsWith('2'));
        const success = (responses[status ?? '200'] ??= { description: 'Risposta riuscita' }) as Record<
          string,
          unknown
        >;
        success.headers = Object.fromEntries(
          Object.entries(hints.responseHeaders).map(([name, description]) => [
            name,
            { description, schema: { type: 'string' } },
          ]),
        );
      }
      if (hints.upload)
        operation.requestBody = {
          required: true,
          content: Object.fromEntries(hints.upload.map((type) => [type, { schema: binary }])),
        };
      for (const status of hints.errors) {
        responses[String(status)] ??= {
          description: ERROR_DESCRIPTIONS[status],
          content: { 'application/json': { schema: errorRef } },
        };
      }
    }
  }
  return document;
}
