import { emailTemplate, type TemplateDefinition } from '../messages/index.ts';

const email = emailTemplate;

/** Version 1 of every message the accounts flows send (staff edit later versions). */
export const ACCOUNTS_TEMPLATES = [
  // The account's e-mail, when staff corrected the mobile number (decision 041).
  email(
    'email.cellulare-cambiato',
    'Il tuo numero di cellulare sul Portale Scuole è cambiato',
    '<p>Gentile {{firstName}},</p><p>lo staff del portale ha corretto il numero di cellulare del tuo account: ora è {{phoneMasked}}. Al prossimo accesso ti chiederemo di confermarlo con un codice via SMS.</p><p>Se non ne sai nulla, scrivi subito allo staff del portale: <a href="{{contactLink}}">{{contactLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nlo staff del portale ha corretto il numero di cellulare del tuo account: ora è {{phoneMasked}}. Al prossimo accesso ti chiederemo di confermarlo con un codice via SMS.\n\nSe non ne sai nulla, scrivi subito allo staff del portale: {{contactLink}}.',
  ),
  // The old address, when the account's e-mail was changed (decision 041).
  email(
    'email.indirizzo-cambiato',
    'Il tuo indirizzo e-mail sul Portale Scuole è cambiato',
    '<p>Gentile {{firstName}},</p><p>l’indirizzo e-mail del tuo account del Portale Scuole è stato cambiato in <strong>{{newEmail}}</strong> ({{changedBy}}). Da ora i messaggi del portale arriveranno a quell’indirizzo, dopo che sarà stato confermato.</p><p>Se non ne sai nulla, scrivi subito allo staff del portale: <a href="{{contactLink}}">{{contactLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nl’indirizzo e-mail del tuo account del Portale Scuole è stato cambiato in {{newEmail}} ({{changedBy}}). Da ora i messaggi del portale arriveranno a quell’indirizzo, dopo che sarà stato confermato.\n\nSe non ne sai nulla, scrivi subito allo staff del portale: {{contactLink}}.',
  ),
  email(
    'email.verifica',
    'Conferma il tuo indirizzo e-mail',
    '<p>Gentile {{firstName}},</p><p>per confermare il tuo indirizzo e-mail apri questo collegamento:</p><p><a href="{{link}}">Conferma l’indirizzo e-mail</a></p><p>Il collegamento vale 24 ore e si può usare una sola volta. Se non hai chiesto tu la registrazione, ignora questo messaggio.</p>',
    'Gentile {{firstName}},\n\nper confermare il tuo indirizzo e-mail apri questo collegamento:\n{{link}}\n\nIl collegamento vale 24 ore e si può usare una sola volta. Se non hai chiesto tu la registrazione, ignora questo messaggio.',
  ),
  email(
    'email.benvenuto',
    'Benvenuto nel Portale Scuole',
    '<p>Gentile {{firstName}},</p><p>la tua registrazione come <strong>{{kindLabel}}</strong> è stata ricevuta ed è in attesa di revisione da parte dello staff.</p><p>Per usare il portale conferma l’indirizzo e-mail e il numero di cellulare, poi accedi da <a href="{{loginLink}}">{{loginLink}}</a>.</p>',
    'Gentile {{firstName}},\n\nla tua registrazione come {{kindLabel}} è stata ricevuta ed è in attesa di revisione da parte dello staff.\n\nPer usare il portale conferma l’indirizzo e-mail e il numero di cellulare, poi accedi da {{loginLink}}.',
  ),
  email(
    'email.registrazione-esistente',
    'Tentativo di registrazione con il tuo indirizzo',
    '<p>Gentile {{firstName}},</p><p>qualcuno ha provato a registrarsi al Portale Scuole con il tuo indirizzo e-mail, che è già associato a un account.</p><p>Se eri tu, puoi <a href="{{loginLink}}">accedere</a> oppure <a href="{{forgotLink}}">scegliere una nuova password</a>. Altrimenti ignora questo messaggio: il tuo account non è stato modificato.</p>',
    'Gentile {{firstName}},\n\nqualcuno ha provato a registrarsi al Portale Scuole con il tuo indirizzo e-mail, che è già associato a un account.\n\nSe eri tu, puoi accedere da {{loginLink}} oppure scegliere una nuova password da {{forgotLink}}. Altrimenti ignora questo messaggio: il tuo account non è stato modificato.',
  ),
  email(
    'email.reset-password',
    'Scegli una nuova password',
    '<p>Gentile {{firstName}},</p><p>abbiamo ricevuto una richiesta per reimpostare la password del tuo account. Per sceglierne una nuova apri questo collegamento:</p><p><a href="{{link}}">Scegli una nuova password</a></p><p>Il collegamento vale 60 minuti e si può usare una sola volta. Se non hai fatto tu la richiesta, ignora questo messaggio: la password attuale resta valida.</p>',
    'Gentile {{firstName}},\n\nabbiamo ricevuto una richiesta per reimpostare la password del tuo account. Per sceglierne una nuova apri questo collegamento:\n{{link}}\n\nIl collegamento vale 60 minuti e si può usare una sola volta. Se non hai fatto tu la richiesta, ignora questo messaggio: la password attuale resta valida.',
  ),
  email(
    'email.password-cambiata',
    'La tua password è stata cambiata',
    '<p>Gentile {{firstName}},</p><p>la password del tuo account è stata cambiata il {{when}}. Per sicurezza abbiamo chiuso {{sessionsNote}}.</p><p>Se non sei stato tu, <a href="{{forgotLink}}">reimposta subito la password</a> e scrivi allo staff del portale.</p>',
    'Gentile {{firstName}},\n\nla password del tuo account è stata cambiata il {{when}}. Per sicurezza abbiamo chiuso {{sessionsNote}}.\n\nSe non sei stato tu, reimposta subito la password da {{forgotLink}} e scrivi allo staff del portale.',
  ),
  email(
    'email.invito',
    'Il tuo account sul Portale Scuole',
    '<p>Gentile {{firstName}},</p><p>{{inviterName}} ha creato per te un account sul Portale Scuole ({{rolesLabel}}). Per attivarlo scegli la tua password da questo collegamento:</p><p><a href="{{link}}">Scegli la tua password</a></p><p>Il collegamento vale 7 giorni e si può usare una sola volta. Se è scaduto, chiedine uno nuovo da <a href="{{forgotLink}}">{{forgotLink}}</a>. Se non ti aspettavi questo messaggio, ignoralo.</p>',
    'Gentile {{firstName}},\n\n{{inviterName}} ha creato per te un account sul Portale Scuole ({{rolesLabel}}). Per attivarlo scegli la tua password da questo collegamento:\n{{link}}\n\nIl collegamento vale 7 giorni e si può usare una sola volta. Se è scaduto, chiedine uno nuovo da {{forgotLink}}. Se non ti aspettavi questo messaggio, ignoralo.',
  ),
  email(
    'email.mfa-reset',
    'Il secondo fattore di accesso è stato azzerato',
    '<p>Gentile {{firstName}},</p><p>un amministratore ha azzerato il secondo fattore di accesso (app di autenticazione) del tuo account il {{when}}. Al prossimo accesso dovrai configurarlo di nuovo.</p><p>Se non l’avevi chiesto, scrivi subito allo staff del portale.</p>',
    'Gentile {{firstName}},\n\nun amministratore ha azzerato il secondo fattore di accesso (app di autenticazione) del tuo account il {{when}}. Al prossimo accesso dovrai configurarlo di nuovo.\n\nSe non l’avevi chiesto, scrivi subito allo staff del portale.',
  ),
  email(
    'email.mfa-bloccato',
    'Accesso bloccato: troppi codici di verifica errati',
    '<p>Gentile {{firstName}},</p><p>il {{when}} qualcuno ha inserito la password corretta del tuo account sul Portale Scuole ma ha sbagliato troppe volte il codice del secondo fattore (app di autenticazione o codice di recupero). Per proteggerti abbiamo bloccato l’accesso per {{lockMinutes}} minuti.</p><p>Se non eri tu, qualcun altro conosce la tua password: cambiala subito da <a href="{{forgotLink}}">{{forgotLink}}</a> e avvisa lo staff del portale.</p>',
    'Gentile {{firstName}},\n\nil {{when}} qualcuno ha inserito la password corretta del tuo account sul Portale Scuole ma ha sbagliato troppe volte il codice del secondo fattore (app di autenticazione o codice di recupero). Per proteggerti abbiamo bloccato l’accesso per {{lockMinutes}} minuti.\n\nSe non eri tu, qualcun altro conosce la tua password: cambiala subito da {{forgotLink}} e avvisa lo staff del portale.',
  ),
  email(
    'email.cancellazione-richiesta',
    'Richiesta di cancellazione dell’account ricevuta',
    '<p>Gentile {{firstName}},</p><p>abbiamo ricevuto il {{when}} la tua richiesta di cancellazione dell’account. Lo staff la completerà entro 30 giorni e te ne darà conferma.</p>',
    'Gentile {{firstName}},\n\nabbiamo ricevuto il {{when}} la tua richiesta di cancellazione dell’account. Lo staff la completerà entro 30 giorni e te ne darà conferma.',
  ),
  {
    key: 'sms.codice',
    channel: 'sms',
    subject: null,
    htmlBody: null,
    textBody:
      'Portale Scuole: il tuo codice di verifica è {{code}}. Vale 10 minuti. Non comunicarlo a nessuno.',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof ACCOUNTS_TEMPLATES)[number]['key'], true> {}
}
