import { DEMO_SURVEY_SLUGS, type SurveyQuestion } from '@portale/shared/surveys';
import type { Db } from '../../db/client.ts';
import { withTransaction } from '../../db/transaction.ts';
import { insertSurveyWithQuestionsOnce } from './surveys.repository.ts';

type SeedQuestion = Omit<SurveyQuestion, 'id' | 'position'>;

const DAY_MS = 86_400_000;
/** The calendar date (Rome) `days` after `now`, `YYYY-MM-DD`. */
function dayOffset(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toLocaleDateString('sv-SE', { timeZone: 'Europe/Rome' });
}

/**
 * The questions of the closed pilot survey (its results are public). Both surveys are for teachers and
 * code holders; the questions about a teacher's own work are for teachers only (decision 046).
 */
export const DEMO_CLOSED_QUESTIONS: SeedQuestion[] = [
  {
    type: 'scelta_singola',
    label: 'In quale ordine di scuola insegni?',
    help: '',
    required: true,
    options: ['Infanzia', 'Primaria', 'Secondaria di primo grado', 'Secondaria di secondo grado'],
    participants: 'insegnanti',
  },
  {
    type: 'scelta_multipla',
    label: 'Quali spazi usi per la didattica, oltre all’aula?',
    help: 'Puoi scegliere più risposte.',
    required: false,
    options: ['Laboratorio', 'Palestra', 'Biblioteca', 'Cortile o giardino', 'Aula digitale'],
    participants: 'insegnanti',
  },
  {
    type: 'scala',
    label: 'Quanto sei soddisfatto degli spazi della tua scuola?',
    help: '1 = per niente, 5 = del tutto.',
    required: true,
    options: [],
    participants: 'entrambi',
  },
  {
    type: 'scala',
    label: 'Quanto spesso usi strumenti digitali in classe?',
    help: '1 = mai, 5 = ogni giorno.',
    required: true,
    options: [],
    participants: 'insegnanti',
  },
  {
    type: 'testo_breve',
    label: 'Con una parola: che cosa migliorereste per primo?',
    help: '',
    required: false,
    options: [],
    participants: 'entrambi',
  },
  {
    type: 'testo_lungo',
    label: 'Vuoi aggiungere un commento sul benessere a scuola?',
    help: 'Non scrivere nomi o dati personali.',
    required: false,
    options: [],
    participants: 'entrambi',
  },
];

/** The questions of the open national survey. */
export const DEMO_OPEN_QUESTIONS: SeedQuestion[] = [
  {
    type: 'scelta_singola',
    label: 'Da quanti anni lavori nella scuola?',
    help: '',
    required: true,
    options: ['Meno di 5', 'Da 5 a 15', 'Più di 15'],
    participants: 'insegnanti',
  },
  {
    type: 'scelta_multipla',
    label: 'Su quali temi vorresti formazione nel prossimo anno?',
    help: 'Puoi scegliere più risposte.',
    required: false,
    options: [
      'Didattica digitale',
      'Inclusione',
      'Valutazione',
      'Benessere e relazioni',
      'Educazione civica',
    ],
    participants: 'insegnanti',
  },
  {
    type: 'scala',
    label: 'Quanto ti senti coinvolto nelle decisioni della scuola?',
    help: '1 = per niente, 5 = moltissimo.',
    required: true,
    options: [],
    participants: 'entrambi',
  },
  {
    type: 'scala',
    label: 'Come valuti il clima di collaborazione tra colleghi?',
    help: '1 = pessimo, 5 = ottimo.',
    required: false,
    options: [],
    participants: 'insegnanti',
  },
  {
    type: 'testo_breve',
    label: 'Quale attività della tua scuola consiglieresti ad altre?',
    help: 'Al massimo 200 caratteri.',
    required: false,
    options: [],
    participants: 'entrambi',
  },
  {
    type: 'testo_lungo',
    label: 'Che cosa cambieresti per migliorare la tua giornata a scuola?',
    help: 'Non scrivere nomi o dati personali.',
    required: false,
    options: [],
    participants: 'entrambi',
  },
];

/**
 * The demo surveys (issue 12), in every environment and idempotent by slug: the closed pilot (seeded
 * first, so it is survey 1 on a fresh database) and the open national survey. Their responses and
 * access codes are seeded by the results and access-code modules.
 */
export async function seedDemoSurveys(
  db: Db,
  now: Date = new Date(),
): Promise<{ closedId: number; openId: number }> {
  return withTransaction(db, async (tx) => {
    const closed = await insertSurveyWithQuestionsOnce(
      tx,
      {
        slug: DEMO_SURVEY_SLUGS.closed,
        title: 'Indagine pilota 2025',
        purpose:
          'La prima rilevazione del programma, in un gruppo di scuole pilota: come insegnanti ed educatori usano gli spazi e gli strumenti digitali e come valutano il benessere a scuola. I risultati aggregati sono pubblici.',
        audience:
          'Insegnanti ed educatori dei plessi pilota e, con un codice di accesso, studenti e famiglie delle loro classi.',
        state: 'chiusa',
        opensOn: dayOffset(now, -120),
        closesOn: dayOffset(now, -30),
        openedAt: new Date(now.getTime() - 120 * DAY_MS),
        closedAt: new Date(now.getTime() - 30 * DAY_MS),
      },
      DEMO_CLOSED_QUESTIONS,
    );
    const open = await insertSurveyWithQuestionsOnce(
      tx,
      {
        slug: DEMO_SURVEY_SLUGS.open,
        title: 'Indagine nazionale sulle scuole 2026',
        purpose:
          'Conoscere come le scuole organizzano la didattica, usano gli spazi e le tecnologie e si prendono cura del benessere di studenti e personale, per restituire a ogni istituto un quadro confrontabile con le altre scuole del territorio.',
        audience:
          'Insegnanti ed educatori dei plessi iscritti al programma, che rispondono dopo l’accesso al portale, e gli studenti e le famiglie delle loro classi, che rispondono in forma anonima con un codice di accesso.',
        state: 'aperta',
        opensOn: dayOffset(now, -7),
        closesOn: dayOffset(now, 61),
        openedAt: new Date(now.getTime() - 7 * DAY_MS),
      },
      DEMO_OPEN_QUESTIONS,
    );
    return { closedId: closed.id, openId: open.id };
  });
}
