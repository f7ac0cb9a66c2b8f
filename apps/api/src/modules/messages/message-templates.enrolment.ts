import type { TemplateDefinition } from './message-templates.defaults.ts';

const email = (key: string, subject: string, htmlBody: string, textBody: string): TemplateDefinition => ({
  key,
  channel: 'email',
  subject,
  htmlBody,
  textBody,
});

const sms = (key: string, textBody: string): TemplateDefinition => ({
  key,
  channel: 'sms',
  subject: null,
  htmlBody: null,
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
  // An existing account named by an enrolment: an invitation, accepted or declined by its owner after
  // signing in (issue 32); nothing changes on the account before that.
  email(
    'email.iscrizione-invito-account',
    'Invito a collegarti all’istituto {{ministryCode}}',
    '<p>Gentile {{firstName}},</p><p>l’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) è stato iscritto al programma e chi lo ha iscritto ti ha indicato come <strong>{{rolesLabel}}</strong>. Il tuo account del Portale Scuole non è stato modificato: se il ruolo è tuo, accedi al portale da <a href="{{link}}">{{link}}</a> e accetta l’invito entro {{days}} giorni. L’invito si può accettare solo se il codice fiscale indicato nell’iscrizione è quello del tuo account.</p><p>Se non ricordi la password, scegline una nuova da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti riguarda, rifiuta l’invito dal portale o ignora questo messaggio.</p>',
    'Gentile {{firstName}},\n\nl’istituto {{instituteName}} ({{ministryCode}}) è stato iscritto al programma e chi lo ha iscritto ti ha indicato come {{rolesLabel}}. Il tuo account del Portale Scuole non è stato modificato: se il ruolo è tuo, accedi al portale da {{link}} e accetta l’invito entro {{days}} giorni. L’invito si può accettare solo se il codice fiscale indicato nell’iscrizione è quello del tuo account.\n\nSe non ricordi la password, scegline una nuova da {{forgotLink}}. Se non ti riguarda, rifiuta l’invito dal portale o ignora questo messaggio.',
  ),
  // The old mobile number, when the account's number changed (by staff or by its owner; decision 047).
  sms(
    'sms.cellulare-cambiato',
    'Portale Scuole: il numero di cellulare del tuo account è stato cambiato {{changedBy}} in {{phoneMasked}}. Se non ne sai nulla, scrivi allo staff: {{contactLink}}',
  ),
];
