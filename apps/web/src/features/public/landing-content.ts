import type { ContentSection } from './content-sections.tsx';

export interface LandingContent {
  intro: string;
  sections: ContentSection[];
  /** The registration form of the accounts flow lives at this anchor of the same page. */
  registration?: { heading: string; needs: string[] };
  cta?: { to: string; label: string };
}

const HOW_IT_WORKS = (role: string): ContentSection => ({
  id: 'come-funziona',
  heading: 'Come funziona',
  ordered: true,
  items: [
    'Compili il modulo di registrazione qui sotto e scegli il plesso in cui lavori.',
    'Confermi il tuo indirizzo e-mail con il collegamento che ti inviamo e il cellulare con un codice via SMS.',
    `Lo staff del programma verifica la registrazione come ${role}: di solito entro tre giorni lavorativi.`,
    'Accedi al portale: trovi il questionario da compilare, i codici di accesso per le tue classi e le azioni proposte.',
  ],
});

const NEEDS = [
  'un indirizzo e-mail personale (non PEC)',
  'il numero di cellulare',
  'il codice fiscale',
  'il codice meccanografico o il nome del tuo plesso',
];

export const LANDINGS: Record<string, LandingContent> = {
  'landing.registration.teacher': {
    intro:
      "Se insegni in un plesso di un istituto che partecipa al programma, registrati per rispondere all'indagine e coinvolgere le tue classi.",
    sections: [
      {
        id: 'per-chi',
        heading: 'Per chi è',
        paragraphs: [
          "Per le docenti e i docenti, di ruolo o con incarico annuale, in servizio in un plesso scelto dall'istituto per l'indagine. Se non sai se il tuo plesso partecipa, chiedilo al referente d'istituto.",
        ],
      },
      {
        id: 'cosa-farai',
        heading: 'Cosa farai',
        items: [
          'Compilerai un questionario sulla didattica e sull’organizzazione della classe (circa 30 minuti).',
          'Genererai i codici di accesso con cui gli studenti rispondono in forma anonima.',
          'Accoglierai il rilevatore durante la visita concordata con la scuola.',
        ],
      },
      HOW_IT_WORKS('insegnante'),
    ],
    registration: { heading: 'Registrati come insegnante', needs: NEEDS },
  },
  'landing.registration.educator': {
    intro:
      'Educatrici ed educatori che lavorano nei plessi partecipanti portano nel programma lo sguardo dei servizi educativi e del sostegno.',
    sections: [
      {
        id: 'per-chi',
        heading: 'Per chi è',
        paragraphs: [
          "Per chi lavora come educatrice o educatore in un plesso partecipante: servizi per l'infanzia, assistenza all'autonomia e alla comunicazione, attività pomeridiane e di tempo pieno.",
        ],
      },
      {
        id: 'cosa-farai',
        heading: 'Cosa farai',
        items: [
          'Risponderai a un questionario dedicato ai servizi educativi e all’inclusione.',
          'Parteciperai, se vuoi, agli incontri di restituzione dei risultati nel tuo territorio.',
          'Potrai proporre attività per le azioni del programma.',
        ],
      },
      HOW_IT_WORKS('educatore'),
    ],
    registration: { heading: 'Registrati come educatrice o educatore', needs: NEEDS },
  },
  'landing.registration.other': {
    intro:
      'Collabori con una scuola partecipante con un ruolo diverso da docente o educatore? Puoi registrarti qui.',
    sections: [
      {
        id: 'per-chi',
        heading: 'Per chi è',
        paragraphs: [
          'Per il personale che contribuisce all’indagine con un ruolo diverso: assistenti tecnici, animatori digitali, psicologi scolastici, collaboratori del dirigente.',
        ],
      },
      {
        id: 'cosa-farai',
        heading: 'Cosa farai',
        items: [
          'Indicherai il tuo ruolo nella scuola: lo staff lo userà per proporti il questionario adatto.',
          'Potrai consultare i materiali del programma e partecipare alle azioni aperte a tutto il personale.',
        ],
      },
      HOW_IT_WORKS('partecipante'),
    ],
    registration: { heading: 'Registrati con un altro ruolo', needs: NEEDS },
  },
  'landing.edu': {
    intro:
      'Il programma dedica uno spazio a educatrici ed educatori: questionari specifici, materiali e incontri sul territorio.',
    sections: [
      {
        id: 'perche',
        heading: 'Perché partecipare',
        paragraphs: [
          "L'indagine guarda alla scuola intera: i servizi educativi, il sostegno e il tempo pieno sono parte della giornata di molti studenti, e senza la voce di chi se ne occupa il quadro sarebbe incompleto.",
        ],
      },
      {
        id: 'cosa-offre',
        heading: "Cosa trovi nell'area educatori",
        items: [
          'Il questionario dedicato ai servizi educativi e all’inclusione.',
          'Schede di attività da proporre ai gruppi, con indicazioni per adattarle.',
          'Il calendario degli incontri di restituzione nella tua regione.',
        ],
      },
    ],
    cta: { to: '/landing/registrazioni/educatore', label: 'Registrati come educatrice o educatore' },
  },
  edu: {
    intro: 'Lo spazio di educatrici ed educatori dei plessi partecipanti: che cosa offre e come entrarci.',
    sections: [
      {
        id: 'materiali',
        heading: 'Materiali',
        paragraphs: [
          'Schede di attività sull’uso degli spazi, sulla partecipazione e sul benessere, pensate per gruppi di età diverse e scaricabili dopo l’accesso.',
        ],
      },
      {
        id: 'incontri',
        heading: 'Incontri',
        paragraphs: [
          'Ogni primavera organizziamo incontri regionali in cui presentiamo i risultati aggregati e raccogliamo proposte per l’anno successivo.',
        ],
      },
      {
        id: 'accesso',
        heading: 'Come accedere',
        paragraphs: [
          'Registrati come educatrice o educatore; quando lo staff ha verificato la registrazione, accedi al portale con le tue credenziali.',
        ],
      },
    ],
    cta: { to: '/landing/registrazioni/educatore', label: 'Registrati come educatrice o educatore' },
  },
  'landing.actions': {
    intro:
      'Oltre all’indagine, il programma propone alle scuole azioni concrete, scelte insieme al referente d’istituto.',
    sections: [
      {
        id: 'cosa-sono',
        heading: 'Che cosa sono le azioni',
        paragraphs: [
          'Attività brevi e verificabili, costruite su modelli preparati dallo staff: per esempio mappare gli spazi esterni del plesso, organizzare un incontro con le famiglie sui risultati, sperimentare una lezione all’aperto.',
        ],
      },
      {
        id: 'come-funzionano',
        heading: 'Come funzionano',
        ordered: true,
        items: [
          'Lo staff assegna un’azione all’istituto, a un plesso o a un insegnante.',
          'Chi la riceve la svolge nei tempi indicati e carica una breve documentazione.',
          'Lo staff verifica la documentazione e la azione risulta completata.',
        ],
      },
      {
        id: 'chi-partecipa',
        heading: 'Chi può partecipare',
        paragraphs: [
          'Tutti gli istituti iscritti al programma con adesione approvata, e i loro insegnanti ed educatori registrati.',
        ],
      },
    ],
    cta: { to: '/iscrizioni/iscrizione', label: 'Iscrivi la tua scuola' },
  },
};
