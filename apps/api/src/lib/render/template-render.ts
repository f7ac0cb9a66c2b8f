import MarkdownIt from 'markdown-it';
import Mustache from 'mustache';

/**
 * Rendering of the stored templates (decision 016): placeholders are Mustache's `{{name}}`, filled by
 * the `mustache` library with an escape function chosen by where the text goes — HTML-escaped in an
 * e-mail's HTML, Markdown-escaped before an edited body becomes HTML through `markdown-it` (raw HTML
 * off), as they are in plain text, SMS and PDF. Templates may use only plain `{{name}}` tags: no
 * sections, partials, comments, unescaped tags or delimiter changes.
 */

export type TemplateData = Record<string, string | number>;

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const PLACEHOLDER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** A template text the library refuses or that uses more than plain `{{name}}` tags. */
export class TemplateSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateSyntaxError';
  }
}

const TAG_LABELS: Record<string, string> = {
  '#': 'una sezione',
  '^': 'una sezione inversa',
  '/': 'la chiusura di una sezione',
  '>': 'un modello incluso (partial)',
  '!': 'un commento',
  '&': 'un segnaposto senza escape',
  '{': 'un segnaposto senza escape',
  '=': 'un cambio di delimitatori',
};

/**
 * The placeholder names of a template text, in order of first use. Throws `TemplateSyntaxError` (an
 * Italian message) when Mustache cannot parse it or when it has any tag other than `{{name}}`.
 */
export function placeholdersOf(text: string): string[] {
  let tokens: unknown[][];
  try {
    tokens = Mustache.parse(text) as unknown as unknown[][];
  } catch (error) {
    const detail = error instanceof Error ? error.message : '';
    const where = /at (\d+)/.exec(detail)?.[1];
    throw new TemplateSyntaxError(
      `Il testo contiene un segnaposto scritto male${where ? ` (carattere ${Number(where) + 1})` : ''}: scrivi i segnaposto come {{nome}}, con due graffe per parte.`,
    );
  }
  const names: string[] = [];
  for (const token of tokens) {
    const [type, value] = token as [string, string];
    if (type === 'text') continue;
    if (type !== 'name') {
      const shown = type === '{' ? `{{{${value}}}}` : `{{${type}${value}}}`;
      throw new TemplateSyntaxError(
        `Sono ammessi solo segnaposto semplici come {{nome}}: ${shown} è ${TAG_LABELS[type] ?? 'un tag non ammesso'}.`,
      );
    }
    if (!PLACEHOLDER_NAME.test(value))
      throw new TemplateSyntaxError(`«{{${value}}}» non è un segnaposto valido: usa un nome come {{nome}}.`);
    if (!names.includes(value)) names.push(value);
  }
  return names;
}

function render(template: string, data: TemplateData, escape: (value: string) => string): string {
  for (const name of placeholdersOf(template)) {
    if (data[name] === undefined) throw new Error(`Template placeholder without value: ${name}`);
  }
  return Mustache.render(template, data, {}, { escape: (value: unknown) => escape(String(value)) });
}

/**
 * Fills `{{name}}` placeholders through Mustache, each value passed through `escape` (raw by default:
 * plain text, SMS, PDF). A missing value is a programming error and throws.
 */
export function fillPlaceholders(
  template: string,
  data: TemplateData,
  escape: (v: string) => string = (v) => v,
): string {
  return render(template, data, escape);
}

/** Names whose value is one of our links: inserted as-is (so Markdown makes it a link) when it is one. */
const LINK_NAME = /^(link|url)$|(Link|Url)$/;
const SAFE_URL = /^https?:\/\/[^\s<>()[\]\\`"]+$/;

/** A value as literal Markdown text: every ASCII punctuation mark escaped, lines as hard breaks. */
export function escapeMarkdown(value: string): string {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`))
    .filter(Boolean)
    .join('\\\n');
}

const markdown = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false }).disable([
  'image',
]);

/**
 * The HTML of an edited e-mail body: the text, a light Markdown (paragraphs, **bold**, lists, links),
 * with its values filled in as literal text, rendered by markdown-it with raw HTML disabled.
 */
export function renderMarkdownHtml(textBody: string, data: TemplateData): string {
  const safe: TemplateData = {};
  for (const [name, value] of Object.entries(data)) {
    const text = String(value);
    safe[name] = LINK_NAME.test(name) && SAFE_URL.test(text) ? text : escapeMarkdown(text);
  }
  return markdown.render(render(textBody, safe, (v) => v));
}

const FOOTER_TEXT = 'Portale Scuole: questo messaggio è stato inviato automaticamente, non rispondere.';

/** Wraps an e-mail body fragment in the common HTML document. */
export function wrapHtml(subject: string, body: string): string {
  return [
    '<!doctype html><html lang="it"><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family:Titillium Web,Arial,sans-serif;color:#1a1a1a;max-width:640px;margin:0 auto;padding:16px">',
    '<p style="font-size:20px;font-weight:bold;color:#0066cc">Portale Scuole</p>',
    body,
    `<hr><p style="font-size:12px;color:#5c6f82">${escapeHtml(FOOTER_TEXT)}</p>`,
    '</body></html>',
  ].join('');
}

export function wrapText(body: string): string {
  return `${body}\n\n--\n${FOOTER_TEXT}\n`;
}

export interface StoredTemplate {
  channel: 'email' | 'sms' | 'pdf';
  subject: string | null;
  /** The system's own HTML of a default version; an edited version has none (its HTML comes from `textBody`). */
  htmlBody: string | null;
  textBody: string;
}

export interface RenderedMessage {
  subject: string | null;
  html: string | null;
  text: string;
}

/**
 * A message as the outbox stores it: an e-mail's subject, HTML document and text (with the footer), an
 * SMS's text. The HTML is the default's own HTML with escaped values, or the edited text through
 * Markdown; never HTML written in the editor.
 */
export function renderMessage(template: StoredTemplate, data: TemplateData): RenderedMessage {
  const subject = template.subject === null ? null : fillPlaceholders(template.subject, data);
  const text = fillPlaceholders(template.textBody, data);
  if (template.channel !== 'email') return { subject, html: null, text };
  const body = template.htmlBody
    ? fillPlaceholders(template.htmlBody, data, escapeHtml)
    : renderMarkdownHtml(template.textBody, data);
  return { subject, html: wrapHtml(subject ?? '', body), text: wrapText(text) };
}
