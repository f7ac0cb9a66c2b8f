import type { TemplateDefinition } from '../messages/index.ts';

/**
 * Messages of the public bookings (issue 12). The `.ics` of the appointment travels as an attachment:
 * the confirmation and a changed slot publish the event, a cancellation cancels it in the calendar.
 */
export const BOOKINGS_TEMPLATES = [
  {
    key: 'email.prenotazione-confermata',
    channel: 'email',
    subject: 'Prenotazione confermata: {{title}}',
    htmlBody:
      '<p>Gentile {{name}},</p><p>la tua prenotazione è confermata:</p><ul><li><strong>Appuntamento:</strong> {{title}}</li><li><strong>Quando:</strong> {{when}} (ora italiana)</li><li><strong>Dove:</strong> {{where}}</li></ul><p>In allegato trovi l’evento da aggiungere al tuo calendario (file .ics).</p><p>Se non puoi partecipare, annulla la prenotazione così il posto torna disponibile per altri: <a href="{{cancelLink}}">annulla la prenotazione</a>.</p>',
    textBody:
      'Gentile {{name}},\n\nla tua prenotazione è confermata:\n\nAppuntamento: {{title}}\nQuando: {{when}} (ora italiana)\nDove: {{where}}\n\nIn allegato trovi l’evento da aggiungere al tuo calendario (file .ics).\n\nSe non puoi partecipare, annulla la prenotazione così il posto torna disponibile per altri:\n{{cancelLink}}',
  },
  {
    key: 'email.prenotazione-annullata',
    channel: 'email',
    subject: 'Prenotazione annullata: {{title}}',
    htmlBody:
      '<p>Gentile {{name}},</p><p>la tua prenotazione è stata annullata:</p><ul><li><strong>Appuntamento:</strong> {{title}}</li><li><strong>Quando:</strong> {{when}} (ora italiana)</li><li><strong>Dove:</strong> {{where}}</li></ul><p>In allegato trovi il file .ics che toglie l’evento dal tuo calendario. Se vuoi, puoi prenotare di nuovo dalla pagina delle prenotazioni.</p>',
    textBody:
      'Gentile {{name}},\n\nla tua prenotazione è stata annullata:\n\nAppuntamento: {{title}}\nQuando: {{when}} (ora italiana)\nDove: {{where}}\n\nIn allegato trovi il file .ics che toglie l’evento dal tuo calendario. Se vuoi, puoi prenotare di nuovo dalla pagina delle prenotazioni.',
  },
  {
    key: 'email.prenotazione-modificata',
    channel: 'email',
    subject: 'Appuntamento modificato: {{title}}',
    htmlBody:
      '<p>Gentile {{name}},</p><p>l’appuntamento che hai prenotato è cambiato. Ecco i dati aggiornati:</p><ul><li><strong>Appuntamento:</strong> {{title}}</li><li><strong>Quando:</strong> {{when}} (ora italiana)</li><li><strong>Dove:</strong> {{where}}</li></ul><p>In allegato trovi l’evento aggiornato (file .ics): aprendolo, il tuo calendario sostituisce quello precedente.</p><p>Se non puoi più partecipare, annulla la prenotazione con il collegamento che hai ricevuto nell’e-mail di conferma.</p>',
    textBody:
      'Gentile {{name}},\n\nl’appuntamento che hai prenotato è cambiato. Ecco i dati aggiornati:\n\nAppuntamento: {{title}}\nQuando: {{when}} (ora italiana)\nDove: {{where}}\n\nIn allegato trovi l’evento aggiornato (file .ics): aprendolo, il tuo calendario sostituisce quello precedente.\n\nSe non puoi più partecipare, annulla la prenotazione con il collegamento che hai ricevuto nell’e-mail di conferma.',
  },
] as const satisfies readonly TemplateDefinition[];

declare module '../messages/template-definition.ts' {
  interface TemplateKeys extends Record<(typeof BOOKINGS_TEMPLATES)[number]['key'], true> {}
}
