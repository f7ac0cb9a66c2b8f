import type { TemplateDefinition } from '../messages/index.ts';

/** The key of the printable sheet of access codes (issue 12), a `pdf` template. */
export const ACCESS_CODE_SHEET_TEMPLATE_KEY = 'documento.codici-accesso';

/**
 * Documents of the surveys issue (12). The sheet of access codes: its title (the PDF's title) and the
 * instructions printed on every card, filled per code. The card's layout (the code in large type, the
 * address, plesso, class, validity) is the renderer's.
 */
export const SURVEYS_TEMPLATES = [
  {
    key: ACCESS_CODE_SHEET_TEMPLATE_KEY,
    channel: 'pdf',
    subject: 'Codici di accesso al questionario',
    htmlBody: null,
    textBody:
      'Apri l’indirizzo con il computer, il tablet o lo smartphone e rispondi alle domande di «{{surveyTitle}}»: bastano pochi minuti. Non servono nome, e-mail o registrazione: le risposte sono anonime. Scrivi il codice {{code}} esattamente così, con maiuscole e minuscole: vale fino al {{lastDay}}.',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof SURVEYS_TEMPLATES)[number]['key'], true> {}
}
