import { PROGRAMME } from '@portale/shared/public';
import type { PdfSpec } from '../../lib/render/pdf-writer.ts';

const { controller, partner, contacts } = PROGRAMME;

export const REGULATION: PdfSpec = {
  title: 'Regolamento del programma',
  subtitle: `${PROGRAMME.fullName} – versione approvata per l'anno scolastico 2025/26`,
  sections: [
    {
      heading: '1. Finalità',
      paragraphs: [
        "Il programma raccoglie, con un'indagine pluriennale, informazioni sulle attività didattiche, sugli spazi e sul benessere nelle scuole statali italiane, per offrire alle scuole, alle famiglie e ai decisori pubblici dati affidabili e confrontabili nel tempo.",
        'I risultati sono pubblicati soltanto in forma aggregata: nessun gruppo con meno di cinque rispondenti viene mai mostrato.',
      ],
    },
    {
      heading: '2. Chi partecipa',
      paragraphs: [
        "Partecipano gli istituti scolastici statali che si iscrivono attraverso il portale. Per ogni istituto il dirigente scolastico firma l'adesione formale e indica un referente d'istituto; l'istituto sceglie i plessi che prendono parte all'indagine.",
        'Insegnanti ed educatori dei plessi partecipanti si registrano sul portale e, dopo la verifica da parte dello staff, rispondono ai questionari e generano i codici di accesso per le proprie classi.',
      ],
    },
    {
      heading: '3. Fasi',
      paragraphs: [
        "Iscrizione dell'istituto; firma dell'adesione formale da parte del dirigente; revisione dell'adesione da parte dello staff; registrazione di insegnanti ed educatori; visite dei rilevatori nei plessi; somministrazione dei questionari; pubblicazione dei risultati aggregati.",
      ],
    },
    {
      heading: "4. Impegni dell'istituto",
      paragraphs: [
        "L'istituto mantiene aggiornati i dati dei plessi e del referente, informa il personale coinvolto, mette a disposizione uno spazio per le visite concordate e comunica tempestivamente eventuali sostituzioni degli insegnanti partecipanti.",
      ],
    },
    {
      heading: '5. Impegni del programma',
      paragraphs: [
        `${controller.name} e ${partner.name} forniscono gratuitamente gli strumenti, la formazione e l'assistenza, concordano con la scuola le date delle visite e restituiscono a ciascun istituto un rapporto con i dati che lo riguardano.`,
      ],
    },
    {
      heading: '6. Ritiro',
      paragraphs: [
        "L'istituto può ritirarsi in qualunque momento con una comunicazione del dirigente scolastico dal portale. I dati già raccolti restano utilizzabili solo in forma aggregata e anonima.",
      ],
    },
    {
      heading: '7. Contatti',
      paragraphs: [
        `Per ogni domanda sul regolamento scrivere a ${contacts.email} o chiamare il ${contacts.phone}, ${contacts.phoneHours}.`,
      ],
    },
  ],
};

export const PRIVACY_NOTICE: PdfSpec = {
  title: 'Informativa sul trattamento dei dati personali',
  subtitle: 'Ai sensi degli articoli 13 e 14 del Regolamento (UE) 2016/679 (GDPR)',
  sections: [
    {
      heading: 'Titolare e responsabile del trattamento',
      paragraphs: [
        `Titolare del trattamento è ${controller.name}, ${controller.address}, PEC ${controller.certifiedEmail}. ${partner.name}, ${partner.address}, tratta i dati per conto del titolare come responsabile ai sensi dell'art. 28 GDPR. Il responsabile della protezione dei dati è raggiungibile all'indirizzo ${contacts.dpoEmail}.`,
      ],
    },
    {
      heading: 'Dati trattati',
      paragraphs: [
        "Dati di contatto di dirigenti, referenti, insegnanti ed educatori (nome, cognome, e-mail, cellulare, codice fiscale, plesso di servizio); dati degli istituti presi dall'anagrafe pubblica del Ministero dell'Istruzione e del Merito; risposte ai questionari, raccolte in forma anonima tramite codici di accesso; dati tecnici di navigazione strettamente necessari.",
      ],
    },
    {
      heading: 'Finalità e basi giuridiche',
      paragraphs: [
        "Gestire l'iscrizione delle scuole e la registrazione dei partecipanti (esecuzione di misure richieste dall'interessato, art. 6.1.b); svolgere l'indagine e pubblicarne i risultati aggregati (interesse pubblico e ricerca statistica, art. 6.1.e e art. 89); garantire la sicurezza del portale (legittimo interesse, art. 6.1.f); misurare l'uso del sito con Google Analytics solo con il consenso (art. 6.1.a).",
      ],
    },
    {
      heading: 'Conservazione',
      paragraphs: [
        'I dati degli account sono conservati per la durata del programma e cancellati entro dodici mesi dalla sua conclusione; i messaggi inviati con il modulo di contatto per ventiquattro mesi; le prove delle scelte sui cookie per la durata della scelta più dodici mesi.',
      ],
    },
    {
      heading: 'Diritti',
      paragraphs: [
        `Puoi chiedere accesso, rettifica, cancellazione, limitazione, portabilità e opporti al trattamento scrivendo a ${contacts.privacyEmail}. Puoi revocare il consenso ai cookie analitici in ogni momento dalla pagina Cookie policy. Hai diritto di proporre reclamo al Garante per la protezione dei dati personali (www.garanteprivacy.it).`,
      ],
    },
  ],
};

export const SCHOOL_GUIDE: PdfSpec = {
  title: 'Guida per le scuole',
  subtitle: "Come iscrivere l'istituto, firmare l'adesione e accompagnare insegnanti ed educatori",
  sections: [
    {
      heading: "1. Iscrivere l'istituto",
      paragraphs: [
        "Dalla pagina Iscrizione della scuola verifica il tuo numero di cellulare con il codice che ricevi per SMS, cerca l'istituto per codice meccanografico o per nome, indica i dati del dirigente e del referente e scegli i plessi che partecipano.",
        "Dirigente e referente ricevono un'e-mail con il collegamento per scegliere la password del proprio account.",
      ],
    },
    {
      heading: "2. Firmare l'adesione formale",
      paragraphs: [
        'Il referente prepara e controlla il documento di adesione; solo il dirigente scolastico lo firma, online con un codice monouso inviato per SMS oppure caricando il PDF firmato digitalmente (PAdES o CAdES).',
        "Lo staff verifica l'adesione: se qualcosa va corretto, il portale indica cosa modificare e il documento torna alla firma.",
      ],
    },
    {
      heading: '3. Insegnanti ed educatori',
      paragraphs: [
        'Condividi con il personale il collegamento alla registrazione per insegnanti o per educatori. Ogni registrazione è verificata dallo staff; il referente vede dal portale chi partecipa e può chiedere una sostituzione.',
      ],
    },
    {
      heading: '4. Visite e questionari',
      paragraphs: [
        'Il rilevatore assegnato al plesso concorda con il referente le date delle visite. Gli insegnanti generano dal portale i codici di accesso di sette caratteri che gli studenti usano per rispondere in forma anonima.',
      ],
    },
    {
      heading: '5. Assistenza',
      paragraphs: [`Scrivi a ${contacts.email} oppure chiama il ${contacts.phone}, ${contacts.phoneHours}.`],
    },
  ],
};
