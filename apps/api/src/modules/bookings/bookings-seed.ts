import { dateToRomeLocal, romeLocalToDate } from '@portale/shared/bookings';
import type { DbOrTx } from '../../db/transaction.ts';
import { randomToken, sha256 } from '../../lib/crypto.ts';
import { insertDemoSlotOnce } from './bookings.repository.ts';

const DAY_MS = 24 * 60 * 60_000;

/** `days` after `now`, at `time` (Rome). */
function at(now: Date, days: number, time: string): Date {
  const day = dateToRomeLocal(new Date(now.getTime() + days * DAY_MS)).slice(0, 10);
  return romeLocalToDate(`${day}T${time}`)!;
}

/**
 * Demo appointments (issue 12): upcoming published slots with free places, one full (all its places
 * booked by demo people), an online one and an unpublished draft. Safe on every start (by title).
 */
export async function seedDemoBookings(db: DbOrTx, now: Date): Promise<void> {
  const people = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      name: `Partecipante dimostrativo ${i + 1}`,
      email: `partecipante${i + 1}@demo.test`,
      institute: i % 2 === 0 ? 'Istituto comprensivo di prova' : null,
      cancelTokenHash: sha256(randomToken(32)),
    }));
  const slots = [
    {
      title: 'Incontro di presentazione del programma',
      description:
        'Presentazione delle attività del programma per dirigenti e referenti delle scuole, con domande e risposte.',
      startsAt: at(now, 10, '15:00'),
      endsAt: at(now, 10, '17:00'),
      place: 'Roma, Sala conferenze, Via di esempio 1',
      onlineUrl: null,
      capacity: 40,
      published: true,
      bookings: people(5),
    },
    {
      title: 'Webinar: come funziona l’indagine',
      description: 'Un’ora online per insegnanti ed educatori: le domande, i codici di accesso e i tempi.',
      startsAt: at(now, 14, '17:30'),
      endsAt: at(now, 14, '18:30'),
      place: null,
      onlineUrl: 'https://meet.example.org/portale-scuole-webinar',
      capacity: 100,
      published: true,
      bookings: people(2),
    },
    {
      title: 'Laboratorio per referenti (completo)',
      description: 'Laboratorio pratico a numero chiuso: tutti i posti sono già stati prenotati.',
      startsAt: at(now, 21, '10:00'),
      endsAt: at(now, 21, '13:00'),
      place: 'Milano, Aula 2, Via di prova 10',
      onlineUrl: null,
      capacity: 3,
      published: true,
      bookings: people(3),
    },
    {
      title: 'Incontro territoriale (bozza)',
      description: 'Non ancora pubblicato: lo staff lo sta preparando.',
      startsAt: at(now, 35, '09:30'),
      endsAt: at(now, 35, '12:30'),
      place: 'Pavia, Aula magna',
      onlineUrl: null,
      capacity: 30,
      published: false,
      bookings: [],
    },
  ];
  for (const slot of slots) await insertDemoSlotOnce(db, slot, now);
}
