import type { TemplateDefinition } from './message-templates.defaults.ts';

/** Messages of the public bookings (issue 12). The `.ics` of the appointment travels as an attachment. */
export const BOOKINGS_TEMPLATES: TemplateDefinition[] = [
  {
    key: 'email.prenotazione-confermata',
    channel: 'email',
    subject: 'Prenotazione confermata: {{title}}',
    htmlBody:
      '<p>Gentile {{name}},</p><p>la tua prenotazione è confermata:</p><ul><li><strong>Appuntamento:</strong> {{title}}</li><li><strong>Quando:</strong> {{when}} (ora italiana)</li><li><strong>Dove:</strong> {{where}}</li></ul><p>In allegato trovi l’evento da aggiungere al tuo calendario (file .ics).</p><p>Se non puoi partecipare, annulla la prenotazione così il posto torna disponibile per altri: <a href="{{cancelLink}}">annulla la prenotazione</a>.</p>',
    textBody:
      'Gentile {{name}},\n\nla tua prenotazione è confermata:\n\nAppuntamento: {{title}}\nQuando: {{when}} (ora italiana)\nDove: {{where}}\n\nIn allegato trovi l’evento da aggiungere al tuo calendario (file .ics).\n\nSe non puoi partecipare, annulla la prenotazione così il posto torna disponibile per altri:\n{{cancelLink}}',
  },
];
