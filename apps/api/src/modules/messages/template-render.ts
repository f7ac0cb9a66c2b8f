export type TemplateData = Record<string, string | number>;

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*\}\}/g;

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Fills `{{name}}` placeholders; a missing value is a programming error and throws. */
export function fillPlaceholders(template: string, data: TemplateData, escape: (v: string) => string = (v) => v): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => {
    const value = data[name];
    if (value === undefined) throw new Error(`Template placeholder without value: ${name}`);
    return escape(String(value));
  });
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
