import { z } from 'zod';
import {
  listResponseSchema,
  optionalEnum,
  PaginationSchema,
  SearchTextSchema,
  sortSchema,
} from '../lists/list-query.ts';
import { TEMPLATE_BODY_MAX, TEMPLATE_CHANNELS, TEMPLATE_SUBJECT_MAX } from './template.constants.ts';

/** The Italian texts of the templates screen (API messages and the web's). */
export const TEMPLATE_MESSAGES = {
  notFound: 'Modello non trovato: la chiave indicata non corrisponde a nessun modello.',
  versionNotFound: 'Versione del modello non trovata.',
  subject: `Inserisci l’oggetto (da 1 a ${TEMPLATE_SUBJECT_MAX} caratteri).`,
  title: `Inserisci il titolo del documento (da 1 a ${TEMPLATE_SUBJECT_MAX} caratteri).`,
  noSubject: 'Un SMS non ha oggetto: lascia il campo vuoto.',
  body: `Inserisci il testo (da 1 a ${TEMPLATE_BODY_MAX} caratteri).`,
  smsTooLong: (max: number, length: number) =>
    `Un SMS può contenere al massimo ${max} caratteri: il testo ne ha ${length}.`,
  unknownPlaceholder: (names: string[], allowed: string[]) =>
    `${names.length === 1 ? `Il segnaposto {{${names[0]}}} non è previsto` : `I segnaposto ${names.map((n) => `{{${n}}}`).join(', ')} non sono previsti`} per questo modello. ${
      allowed.length
        ? `Puoi usare: ${allowed.map((n) => `{{${n}}}`).join(', ')}.`
        : 'Questo modello non ha segnaposto.'
    }`,
  missingPlaceholder: (names: string[]) =>
    `${names.length === 1 ? `Il testo deve contenere {{${names[0]}}}` : `Il testo deve contenere ${names.map((n) => `{{${n}}}`).join(' e ')}`}: è ciò che il messaggio consegna al destinatario, senza non gli serve.`,
  baseVersion: 'Indica la versione da cui sei partito.',
  stale: (current: number, base: number) =>
    `Il modello è stato modificato da qualcun altro mentre lo stavi modificando (ora è alla versione ${current}, tu eri partito dalla ${base}). Ricarica la pagina e riapplica le modifiche.`,
  alreadyCurrent: (version: number) =>
    `La versione ${version} è già quella in uso: non c’è niente da ripristinare.`,
  saved: (version: number) => `Modello salvato: è ora in uso la versione ${version}.`,
  restored: (from: number, version: number) =>
    `Versione ${from} ripristinata: è ora in uso come versione ${version}.`,
} as const;

/** A template key: `email.reset-password`, `sms.codice`, `documento.adesione`. */
export const TemplateKeySchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9.-]*$/, 'Chiave del modello non valida.');
export const TemplateParamsSchema = z.object({ key: TemplateKeySchema });
export const TemplateVersionParamsSchema = z.object({
  key: TemplateKeySchema,
  version: z.coerce
    .number({ error: 'Versione non valida.' })
    .int('Versione non valida.')
    .min(1, 'Versione non valida.')
    .max(1_000_000, 'Versione non valida.'),
});

/** One row of the list: the version in use of a key. */
export const TemplateSummarySchema = z.object({
  key: z.string(),
  channel: z.enum(TEMPLATE_CHANNELS),
  subject: z.string().nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
  /** Who saved the version in use (null: the system's default). */
  updatedBy: z.string().nullable(),
});
export type TemplateSummary = z.infer<typeof TemplateSummarySchema>;

export const TEMPLATE_SORTS = ['key', 'channel', 'version', 'updatedAt'] as const;
export const TemplateFiltersSchema = z.object({
  q: SearchTextSchema,
  channel: optionalEnum(TEMPLATE_CHANNELS, 'Canale'),
  sort: sortSchema(TEMPLATE_SORTS),
});
export const TemplateListQuerySchema = TemplateFiltersSchema.extend(PaginationSchema.shape);
export type TemplateListQuery = z.output<typeof TemplateListQuerySchema>;
export type TemplateFilters = z.output<typeof TemplateFiltersSchema>;
export const TemplateListResponseSchema = listResponseSchema(TemplateSummarySchema);

/** A template as the editor opens it: the version in use and what it may contain. */
export const TemplateDetailSchema = TemplateSummarySchema.extend({
  textBody: z.string(),
  /** The version in use is a default with the system's own HTML layout (an edit replaces it with the text as Markdown). */
  hasDefaultLayout: z.boolean(),
  restoredFromVersion: z.number().int().nullable(),
  /** The placeholders this template may use (those of its default). */
  placeholders: z.array(z.string()),
  /** Longest text allowed (an SMS's limit, otherwise the body's). */
  maxLength: z.number().int(),
});
export type TemplateDetail = z.infer<typeof TemplateDetailSchema>;

export const TemplateVersionSchema = z.object({
  version: z.number().int(),
  subject: z.string().nullable(),
  textBody: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  restoredFromVersion: z.number().int().nullable(),
});
export type TemplateVersion = z.infer<typeof TemplateVersionSchema>;
export const TemplateVersionListSchema = z.object({ items: z.array(TemplateVersionSchema) });

const subjectField = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : v === undefined ? null : v),
  z
    .string({ error: TEMPLATE_MESSAGES.subject })
    .max(TEMPLATE_SUBJECT_MAX, TEMPLATE_MESSAGES.subject)
    .nullable(),
);
const bodyField = z
  .string({ error: TEMPLATE_MESSAGES.body })
  .transform((v) => v.replace(/\r\n?/g, '\n').trim())
  .pipe(z.string().min(1, TEMPLATE_MESSAGES.body).max(TEMPLATE_BODY_MAX, TEMPLATE_MESSAGES.body));

/** A draft: subject (e-mail, PDF title; none for an SMS) and body (plain text / light Markdown). */
export const TemplateDraftSchema = z.object({ subject: subjectField, textBody: bodyField }).strict();
export type TemplateDraft = z.input<typeof TemplateDraftSchema>;

/** A new version: the draft and the version the editor started from (409 if another was saved meanwhile). */
export const TemplateUpdateSchema = z
  .object({
    subject: subjectField,
    textBody: bodyField,
    baseVersion: z.coerce
      .number({ error: TEMPLATE_MESSAGES.baseVersion })
      .int(TEMPLATE_MESSAGES.baseVersion)
      .min(1, TEMPLATE_MESSAGES.baseVersion),
  })
  .strict();
export type TemplateUpdate = z.input<typeof TemplateUpdateSchema>;

/** The preview of an e-mail (HTML document and text) or an SMS; a PDF preview is the PDF itself. */
export const TemplatePreviewSchema = z.discriminatedUnion('channel', [
  z.object({ channel: z.literal('email'), subject: z.string(), html: z.string(), text: z.string() }),
  z.object({ channel: z.literal('sms'), text: z.string(), length: z.number().int() }),
]);
export type TemplatePreview = z.infer<typeof TemplatePreviewSchema>;
