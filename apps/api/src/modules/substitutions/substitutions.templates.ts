import { emailTemplate, type TemplateDefinition } from '../messages/index.ts';

const email = emailTemplate;

/** Messages of substitutions (issue 10): the decision told to the people involved and to the requester. */
export const SUBSTITUTIONS_TEMPLATES = [
  // The outgoing teacher: they leave the plesso.
  email(
    'email.sostituzione-uscente',
    'Sostituzione nel plesso {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff del programma ha approvato la sostituzione richiesta dall’istituto <strong>{{instituteName}}</strong>: dal {{effectiveOn}} nel plesso <strong>{{siteName}}</strong> ({{siteCode}}) subentra {{incomingName}}.</p><p>Da quel giorno le tue classi e i codici di accesso alle indagini di quel plesso passano a chi subentra; fino ad allora restano a te. Il tuo account del Portale Scuole resta attivo.</p><p>Per qualsiasi chiarimento rivolgiti al dirigente scolastico o al referente dell’istituto.</p>',
    'Gentile {{firstName}},\n\nlo staff del programma ha approvato la sostituzione richiesta dall’istituto {{instituteName}}: dal {{effectiveOn}} nel plesso {{siteName}} ({{siteCode}}) subentra {{incomingName}}.\n\nDa quel giorno le tue classi e i codici di accesso alle indagini di quel plesso passano a chi subentra; fino ad allora restano a te. Il tuo account del Portale Scuole resta attivo.\n\nPer qualsiasi chiarimento rivolgiti al dirigente scolastico o al referente dell’istituto.',
  ),
  // The incoming teacher with an account: they join the plesso.
  email(
    'email.sostituzione-entrante',
    'Sei stato indicato per il plesso {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>lo staff del programma ha approvato la sostituzione richiesta dall’istituto <strong>{{instituteName}}</strong>: dal {{effectiveOn}} partecipi al programma nel plesso <strong>{{siteName}}</strong> ({{siteCode}}) al posto di {{outgoingName}}, con le sue classi e i suoi codici di accesso alle indagini.</p><p>Accedi da <a href="{{loginLink}}">{{loginLink}}</a> con le tue credenziali; se non ricordi la password, scegline una nuova da <a href="{{forgotLink}}">{{forgotLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff del programma ha approvato la sostituzione richiesta dall’istituto {{instituteName}}: dal {{effectiveOn}} partecipi al programma nel plesso {{siteName}} ({{siteCode}}) al posto di {{outgoingName}}, con le sue classi e i suoi codici di accesso alle indagini.\n\nAccedi da {{loginLink}} con le tue credenziali; se non ricordi la password, scegline una nuova da {{forgotLink}}.',
  ),
  // The incoming teacher without an account: created on approval, the link chooses the password (7 days).
  email(
    'email.sostituzione-invito',
    'Il tuo account del Portale Scuole per il plesso {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>l’istituto <strong>{{instituteName}}</strong> ti ha indicato per sostituire {{outgoingName}} nel plesso <strong>{{siteName}}</strong> ({{siteCode}}) dal {{effectiveOn}}, e lo staff del programma ha approvato la richiesta. Abbiamo creato per te un account sul Portale Scuole: per attivarlo scegli la tua password da questo collegamento:</p><p><a href="{{link}}">Scegli la tua password</a></p><p>Il collegamento vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.</p>',
    'Gentile {{firstName}},\n\nl’istituto {{instituteName}} ti ha indicato per sostituire {{outgoingName}} nel plesso {{siteName}} ({{siteCode}}) dal {{effectiveOn}}, e lo staff del programma ha approvato la richiesta. Abbiamo creato per te un account sul Portale Scuole: per attivarlo scegli la tua password da questo collegamento:\n{{link}}\n\nIl collegamento vale 7 giorni e si può usare una sola volta; usarlo conferma anche il tuo indirizzo e-mail. Se è scaduto, chiedine uno nuovo da {{forgotLink}}. Se non ti aspettavi questo messaggio, ignoralo e scrivi allo staff del portale.',
  ),
  // The requester: the request was approved.
  email(
    'email.sostituzione-approvata',
    'Sostituzione approvata nel plesso {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>la tua richiesta di sostituire {{outgoingName}} con {{incomingName}} nel plesso <strong>{{siteName}}</strong> ({{siteCode}}) dal {{effectiveOn}} è stata approvata. Da quel giorno plesso, classi e codici di accesso passano a chi subentra; abbiamo avvisato entrambe le persone.</p>',
    'Gentile {{firstName}},\n\nla tua richiesta di sostituire {{outgoingName}} con {{incomingName}} nel plesso {{siteName}} ({{siteCode}}) dal {{effectiveOn}} è stata approvata. Da quel giorno plesso, classi e codici di accesso passano a chi subentra; abbiamo avvisato entrambe le persone.',
  ),
  // The requester: the request was rejected, with the staff's note.
  email(
    'email.sostituzione-respinta',
    'Richiesta di sostituzione respinta nel plesso {{siteName}}',
    '<p>Gentile {{firstName}},</p><p>la tua richiesta di sostituire {{outgoingName}} con {{incomingName}} nel plesso <strong>{{siteName}}</strong> ({{siteCode}}) è stata respinta dallo staff del programma con questa nota:</p><blockquote>{{note}}</blockquote><p>Puoi inviare una nuova richiesta dalla tua area riservata: <a href="{{portalLink}}">{{portalLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nla tua richiesta di sostituire {{outgoingName}} con {{incomingName}} nel plesso {{siteName}} ({{siteCode}}) è stata respinta dallo staff del programma con questa nota:\n\n{{note}}\n\nPuoi inviare una nuova richiesta dalla tua area riservata: {{portalLink}}.',
  ),
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof SUBSTITUTIONS_TEMPLATES)[number]['key'], true> {}
}
