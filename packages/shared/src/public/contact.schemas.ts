import { z } from 'zod';
import { isPlainName, PERSON_NAME_CONTROL_MESSAGE } from '../validation/index.ts';

export const CONTACT_TOPICS = ['iscrizione', 'registrazione', 'indagine', 'privacy', 'altro'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];
export const CONTACT_TOPIC_LABELS: Record<ContactTopic, string> = {
  iscrizione: 'Iscrizione della scuola',
  registrazione: 'Registrazione di insegnanti ed educatori',
  indagine: "Partecipazione all'indagine",
  privacy: 'Privacy e dati personali',
  altro: 'Altro',
};

export const CONTACT_MESSAGES = {
  name: 'Inserisci nome e cognome (da 2 a 100 caratteri).',
  email: 'Inserisci un indirizzo e-mail valido.',
  topic: "Scegli l'argomento del messaggio.",
  message: 'Scrivi un messaggio di almeno 20 caratteri (al massimo 4000).',
  privacy: "Per inviare il messaggio devi dichiarare di aver letto l'informativa sulla privacy.",
  accepted:
    'Grazie, il tuo messaggio è stato inviato. Ti risponderemo all’indirizzo indicato entro cinque giorni lavorativi.',
  rateLimited: 'Hai inviato troppi messaggi in poco tempo. Riprova tra qualche minuto.',
} as const;

/** The contact form. `website` is a honeypot: people never see it, bots fill it. */
export const ContactMessageInputSchema = z.object({
  name: z
    .string({ error: CONTACT_MESSAGES.name })
    .trim()
    .min(2, CONTACT_MESSAGES.name)
    .max(100, CONTACT_MESSAGES.name)
    .refine(isPlainName, PERSON_NAME_CONTROL_MESSAGE),
  email: z
    .string({ error: CONTACT_MESSAGES.email })
    .trim()
    .toLowerCase()
    .max(254, CONTACT_MESSAGES.email)
    .email(CONTACT_MESSAGES.email),
  topic: z.enum(CONTACT_TOPICS, { error: CONTACT_MESSAGES.topic }),
  message: z
    .string({ error: CONTACT_MESSAGES.message })
    .trim()
    .min(20, CONTACT_MESSAGES.message)
    .max(4000, CONTACT_MESSAGES.message),
  privacyAccepted: z.literal(true, { error: CONTACT_MESSAGES.privacy }),
  website: z.string().max(500).optional(),
});
export type ContactMessageInput = z.input<typeof ContactMessageInputSchema>;

export const ContactAcceptedSchema = z.object({ message: z.string() });
