import { Link } from 'react-router';
import { PROGRAMME } from '@portale/shared/public';
import type { ContentSection } from './content-sections.tsx';

const { controller, partner, contacts } = PROGRAMME;

export const LEGAL_PAGES: Record<string, { updated: string; sections: ContentSection[] }> = {
  privacy: {
    updated: '15 gennaio 2026',
    sections: [
      {
        id: 'titolare',
        heading: 'Titolare e responsabile',
        paragraphs: [
          `Titolare del trattamento è ${controller.name}, ${controller.address} (PEC ${controller.certifiedEmail}). ${partner.name}, ${partner.address}, tratta i dati per conto del titolare come responsabile (art. 28 GDPR). Il responsabile della protezione dei dati risponde a ${contacts.dpoEmail}.`,
        ],
      },
      {
        id: 'dati',
        heading: 'Quali dati trattiamo',
        items: [
          'Dati di chi visita il sito: dati tecnici di navigazione e, solo con il consenso, statistiche di Google Analytics.',
          'Dati di chi scrive con il modulo di contatto: nome, e-mail, argomento e testo del messaggio.',
          'Dati di dirigenti, referenti, insegnanti ed educatori registrati: anagrafica, contatti, codice fiscale, plesso di servizio.',
          'Risposte ai questionari degli studenti: raccolte in forma anonima con codici di accesso.',
        ],
      },
      {
        id: 'finalita',
        heading: 'Perché e su quale base',
        items: [
          'Rispondere ai messaggi e gestire iscrizioni e registrazioni: esecuzione di misure richieste dall’interessato (art. 6.1.b GDPR).',
          'Svolgere l’indagine e pubblicarne i risultati aggregati: interesse pubblico e ricerca statistica (art. 6.1.e e art. 89 GDPR).',
          'Proteggere il portale da abusi: legittimo interesse (art. 6.1.f GDPR).',
          'Statistiche di uso del sito: consenso (art. 6.1.a GDPR), revocabile in ogni momento.',
        ],
      },
      {
        id: 'conservazione',
        heading: 'Per quanto tempo',
        paragraphs: [
          'Messaggi del modulo di contatto: 24 mesi. Account: per la durata del programma e fino a 12 mesi dopo la sua conclusione. Prove delle scelte sui cookie: per la durata della scelta più 12 mesi. Non conserviamo l’indirizzo IP di chi registra una scelta sui cookie.',
        ],
      },
      {
        id: 'destinatari',
        heading: 'A chi li comunichiamo',
        paragraphs: [
          'Al personale autorizzato dei partner, ai fornitori di hosting e di posta elettronica nominati responsabili e, solo con il consenso, a Google Ireland Ltd per le statistiche. I dati sono conservati nell’Unione europea.',
        ],
      },
      {
        id: 'diritti',
        heading: 'I tuoi diritti',
        paragraphs: [
          <>
            Puoi chiedere accesso, rettifica, cancellazione, limitazione, portabilità e opporti al trattamento
            scrivendo a <a href={`mailto:${contacts.privacyEmail}`}>{contacts.privacyEmail}</a>. Puoi cambiare
            la scelta sui cookie dalla <Link to="/policy/cookie">cookie policy</Link>. Hai diritto di proporre
            reclamo al Garante per la protezione dei dati personali.
          </>,
        ],
      },
    ],
  },
  'legal-notes': {
    updated: '15 gennaio 2026',
    sections: [
      {
        id: 'titolare-sito',
        heading: 'Titolare del sito',
        paragraphs: [
          `Il sito è gestito da ${controller.name}, ${controller.address}, partita IVA ${controller.vatNumber}, insieme a ${partner.name} (partita IVA ${partner.vatNumber}).`,
        ],
      },
      {
        id: 'contenuti',
        heading: 'Diritti sui contenuti',
        paragraphs: [
          'I testi e i documenti pubblicati sono rilasciati con licenza Creative Commons Attribuzione 4.0 (CC BY 4.0), salvo dove indicato diversamente: puoi riutilizzarli citando la fonte «Portale Scuole». I marchi e i loghi dei partner restano dei rispettivi titolari.',
          'I dati dell’anagrafe delle scuole provengono dal Ministero dell’Istruzione e del Merito (Portale Unico dei Dati della Scuola); le coordinate dei comuni da ISTAT e openpolis (CC BY 4.0).',
        ],
      },
      {
        id: 'responsabilita',
        heading: 'Responsabilità',
        paragraphs: [
          'Curiamo con attenzione l’esattezza delle informazioni, ma possono esserci errori o ritardi di aggiornamento: segnalaceli dalla pagina Contatti. I collegamenti a siti esterni sono offerti per comodità; non rispondiamo dei loro contenuti.',
        ],
      },
      {
        id: 'uso',
        heading: 'Uso del portale',
        paragraphs: [
          'Le credenziali di accesso sono personali. È vietato tentare di accedere a dati altrui o disturbare il funzionamento del servizio; i tentativi sono registrati e possono essere segnalati alle autorità.',
        ],
      },
    ],
  },
  accessibility: {
    updated: '15 gennaio 2026',
    sections: [
      {
        id: 'impegno',
        heading: 'Il nostro impegno',
        paragraphs: [
          `${controller.name} si impegna a rendere accessibile il sito Portale Scuole in conformità alla legge 9 gennaio 2004, n. 4, e alle Linee guida AgID sull’accessibilità degli strumenti informatici. Questa dichiarazione si applica al sito pubblico e all’area riservata del portale.`,
        ],
      },
      {
        id: 'stato',
        heading: 'Stato di conformità',
        paragraphs: [
          'Il sito è parzialmente conforme ai requisiti della norma UNI EN 301549 (WCAG 2.1 livello AA), per i casi di non conformità elencati sotto. La valutazione è stata fatta con un’autovalutazione: controlli automatici con axe su ogni pagina pubblica, a larghezza desktop e mobile, e verifiche manuali da tastiera e con lettore di schermo.',
        ],
      },
      {
        id: 'limiti',
        heading: 'Contenuti non accessibili',
        items: [
          'I documenti PDF pubblicati prima del 2026 non hanno ancora una struttura con tag completa: su richiesta li forniamo in formato accessibile.',
          'Alcuni grafici dell’area riservata non hanno ancora una tabella di dati alternativa.',
          'La mappa dei plessi dell’area riservata è usabile da tastiera solo in parte; gli stessi dati sono disponibili nell’elenco dei plessi.',
        ],
      },
      {
        id: 'feedback',
        heading: 'Segnalazioni e feedback',
        paragraphs: [
          <>
            Se trovi un problema di accessibilità o vuoi ricevere un contenuto in formato accessibile, scrivi
            a <a href={`mailto:${contacts.accessibilityEmail}`}>{contacts.accessibilityEmail}</a> o usa il{' '}
            <Link to="/contatti">modulo della pagina Contatti</Link>. Ti rispondiamo entro 30 giorni.
          </>,
          'Se la risposta non ti soddisfa, o non ricevi risposta, puoi rivolgerti al Difensore civico per il digitale presso AgID (difensore.civico@agid.gov.it).',
        ],
      },
      {
        id: 'redazione',
        heading: 'Redazione della dichiarazione',
        paragraphs: [
          'Dichiarazione redatta il 15 gennaio 2026 secondo il modello AgID e riesaminata a ogni rilascio del sito.',
        ],
      },
    ],
  },
};
