import type { TemplateDefinition } from '../messages/index.ts';

/** Messages of the public site (issue 3). */
export const PUBLIC_TEMPLATES = [
  {
    key: 'email.contatto-staff',
    channel: 'email',
    subject: 'Nuovo messaggio dal sito: {{topicLabel}}',
    htmlBody:
      '<p>È arrivato un nuovo messaggio dal modulo di contatto del sito (n. {{messageId}}, {{when}}).</p><ul><li><strong>Da:</strong> {{name}} &lt;{{email}}&gt;</li><li><strong>Argomento:</strong> {{topicLabel}}</li></ul><p style="white-space:pre-line">{{message}}</p><p>Rispondi direttamente all’indirizzo del mittente entro cinque giorni lavorativi.</p>',
    textBody:
      'È arrivato un nuovo messaggio dal modulo di contatto del sito (n. {{messageId}}, {{when}}).\n\nDa: {{name}} <{{email}}>\nArgomento: {{topicLabel}}\n\n{{message}}\n\nRispondi direttamente all’indirizzo del mittente entro cinque giorni lavorativi.',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof PUBLIC_TEMPLATES)[number]['key'], true> {}
}
