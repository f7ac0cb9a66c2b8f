import { emailTemplate, smsTemplate, type TemplateDefinition } from '../messages/index.ts';

const email = emailTemplate;

const sms = smsTemplate;

/** Messages and documents of the onboarding issue (9): enrolment. */
export const ENROLMENT_TEMPLATES = [
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
  // Handovers (decision 047): a new principal or first contact replaces the holder when they accept.
  // A new address: the account is created, the link chooses its password, then the portal shows the invitation.
  email(
    'email.passaggio-invito',
    'Sei indicato come {{roleLabel}} dell’istituto {{ministryCode}}',
    '<p>Gentile {{firstName}},</p><p>{{inviterName}} ti ha indicato come nuovo <strong>{{roleLabel}}</strong> dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}) nel Portale Scuole. Abbiamo creato per te un account: scegli la tua password da questo collegamento:</p><p><a href="{{link}}">Scegli la tua password</a></p><p>Poi accedi al portale, completa la registrazione e accetta l’invito entro {{days}} giorni: da quel momento subentri a chi ricopre ora il ruolo. L’invito si può accettare solo con il codice fiscale indicato da chi ti ha invitato.</p><p>Il collegamento per la password vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.</p>',
    'Gentile {{firstName}},\n\n{{inviterName}} ti ha indicato come nuovo {{roleLabel}} dell’istituto {{instituteName}} ({{ministryCode}}) nel Portale Scuole. Abbiamo creato per te un account: scegli la tua password da questo collegamento:\n{{link}}\n\nPoi accedi al portale, completa la registrazione e accetta l’invito entro {{days}} giorni: da quel momento subentri a chi ricopre ora il ruolo. L’invito si può accettare solo con il codice fiscale indicato da chi ti ha invitato.\n\nIl collegamento per la password vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da {{forgotLink}}. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.',
  ),
  // An existing account: the invitation waits on the portal's home, where its owner accepts or declines it.
  email(
    'email.passaggio-invito-account',
    'Invito a subentrare come {{roleLabel}} dell’istituto {{ministryCode}}',
    '<p>Gentile {{firstName}},</p><p>{{inviterName}} ti ha indicato come nuovo <strong>{{roleLabel}}</strong> dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}). Il tuo account del Portale Scuole non è stato modificato: se il ruolo è tuo, accedi al portale da <a href="{{link}}">{{link}}</a> e accetta l’invito entro {{days}} giorni; da quel momento subentri a chi ricopre ora il ruolo. L’invito si può accettare solo se il codice fiscale indicato è quello del tuo account.</p><p>Se non ricordi la password, scegline una nuova da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti riguarda, rifiuta l’invito dal portale o ignora questo messaggio.</p>',
    'Gentile {{firstName}},\n\n{{inviterName}} ti ha indicato come nuovo {{roleLabel}} dell’istituto {{instituteName}} ({{ministryCode}}). Il tuo account del Portale Scuole non è stato modificato: se il ruolo è tuo, accedi al portale da {{link}} e accetta l’invito entro {{days}} giorni; da quel momento subentri a chi ricopre ora il ruolo. L’invito si può accettare solo se il codice fiscale indicato è quello del tuo account.\n\nSe non ricordi la password, scegline una nuova da {{forgotLink}}. Se non ti riguarda, rifiuta l’invito dal portale o ignora questo messaggio.',
  ),
  // The person replaced: their access to that institute ended; the account and other institutes stay.
  email(
    'email.passaggio-concluso',
    'Non sei più {{roleLabel}} dell’istituto {{ministryCode}} sul Portale Scuole',
    '<p>Gentile {{firstName}},</p><p>dal {{when}} <strong>{{successorName}}</strong> è il nuovo {{roleLabel}} dell’istituto <strong>{{instituteName}}</strong> ({{ministryCode}}): il tuo accesso a questo istituto nel Portale Scuole è terminato. Il tuo account resta attivo, con gli altri istituti e ruoli che hai.</p><p>{{adhesionNote}}</p><p>Se non ne sai nulla, scrivi subito allo staff del portale: <a href="{{contactLink}}">{{contactLink}}</a>.</p>',
    'Gentile {{firstName}},\n\ndal {{when}} {{successorName}} è il nuovo {{roleLabel}} dell’istituto {{instituteName}} ({{ministryCode}}): il tuo accesso a questo istituto nel Portale Scuole è terminato. Il tuo account resta attivo, con gli altri istituti e ruoli che hai.\n\n{{adhesionNote}}\n\nSe non ne sai nulla, scrivi subito allo staff del portale: {{contactLink}}.',
  ),
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof ENROLMENT_TEMPLATES)[number]['key'], true> {}
}
