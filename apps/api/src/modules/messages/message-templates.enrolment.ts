import type { TemplateDefinition } from './message-templates.defaults.ts';

const email = (key: string, subject: string, htmlBody: string, textBody: string): TemplateDefinition => ({
  key,
  channel: 'email',
  subject,
  htmlBody,
  textBody,
});

/** Messages and documents of the onboarding issue (9): enrolment. */
export const ENROLMENT_TEMPLATES: TemplateDefinition[] = [
  // A new principal or first contact: the account exists, the link chooses its password (7 days).
  email(
    'email.iscrizione-invito',
    'Iscrizione dell’istituto {{ministryCode}} al Portale Scuole',
    '<p>Gentile {{firstName}},</p><p>l’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) è stato iscritto al programma e tu sei indicato come <strong>{{rolesLabel}}</strong>. Abbiamo creato per te un account sul Portale Scuole: per attivarlo scegli la tua password da questo collegamento:</p><p><a href="{{link}}">Scegli la tua password</a></p><p>{{nextStep}}</p><p>Il collegamento vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.</p>',
    'Gentile {{firstName}},\n\nl’istituto {{instituteName}} ({{ministryCode}}) è stato iscritto al programma e tu sei indicato come {{rolesLabel}}. Abbiamo creato per te un account sul Portale Scuole: per attivarlo scegli la tua password da questo collegamento:\n{{link}}\n\n{{nextStep}}\n\nIl collegamento vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da {{forgotLink}}. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.',
  ),
  // An existing account linked to the institute: a notice, no link that changes anything.
  email(
    'email.iscrizione-collegamento',
    'Il tuo account è stato collegato all’istituto {{ministryCode}}',
    '<p>Gentile {{firstName}},</p><p>l’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) è stato iscritto al programma e il tuo account del Portale Scuole è stato collegato all’istituto come <strong>{{rolesLabel}}</strong>.</p><p>{{nextStep}} Accedi da <a href="{{loginLink}}">{{loginLink}}</a> con le tue credenziali; se non ricordi la password, scegline una nuova da <a href="{{forgotLink}}">{{forgotLink}}</a>.</p><p>Se non ti aspettavi questo messaggio, scrivi allo staff del portale.</p>',
    'Gentile {{firstName}},\n\nl’istituto {{instituteName}} ({{ministryCode}}) è stato iscritto al programma e il tuo account del Portale Scuole è stato collegato all’istituto come {{rolesLabel}}.\n\n{{nextStep}} Accedi da {{loginLink}} con le tue credenziali; se non ricordi la password, scegline una nuova da {{forgotLink}}.\n\nSe non ti aspettavi questo messaggio, scrivi allo staff del portale.',
  ),
];
