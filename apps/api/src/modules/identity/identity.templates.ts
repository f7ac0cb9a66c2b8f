import { emailTemplate } from '../messages/index.ts';

/** Version 1 of the messages the login with SPID/CIE sends (staff edit later versions). */
export const IDENTITY_TEMPLATES = [
  // The code that proves the account before a verified identity is linked to it (no password needed).
  emailTemplate(
    'email.codice-collegamento',
    'Codice per collegare {{provider}} al tuo account',
    '<p>Gentile {{firstName}},</p><p>per collegare l’accesso con {{provider}} al tuo account del Portale Scuole inserisci questo codice nella pagina del portale:</p><p style="font-size:1.5em;letter-spacing:.2em"><strong>{{code}}</strong></p><p>Il codice vale {{minutes}} minuti e si può usare una sola volta. Se non hai chiesto tu il collegamento, ignora questo messaggio e avvisa lo staff del portale: il tuo account non è stato modificato.</p>',
    'Gentile {{firstName}},\n\nper collegare l’accesso con {{provider}} al tuo account del Portale Scuole inserisci questo codice nella pagina del portale:\n\n{{code}}\n\nIl codice vale {{minutes}} minuti e si può usare una sola volta. Se non hai chiesto tu il collegamento, ignora questo messaggio e avvisa lo staff del portale: il tuo account non è stato modificato.',
  ),
];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof IDENTITY_TEMPLATES)[number]['key'], true> {}
}
