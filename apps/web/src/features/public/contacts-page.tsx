import { useState } from 'react';
import { Accordion, AccordionBody, AccordionHeader, AccordionItem } from 'design-react-kit';
import { Link } from 'react-router';
import { PROGRAMME } from '@portale/shared/public';
import { PageHeader } from '../../components/page-header.tsx';
import { ContactForm } from './contact-form.tsx';
import { useCurrentPage } from '../../lib/use-current-page.ts';

const FAQ = [
  {
    q: 'La partecipazione ha un costo per la scuola?',
    a: 'No. Strumenti, formazione e assistenza sono gratuiti per tutti gli istituti statali che si iscrivono.',
  },
  {
    q: 'Chi può iscrivere la scuola?',
    a: "L'iscrizione la avvia il dirigente scolastico o il referente d'istituto; l'adesione formale la firma sempre il dirigente.",
  },
  {
    q: 'Il mio plesso partecipa: come mi registro come insegnante?',
    a: 'Dalla pagina Registrazione insegnanti: ti servono e-mail personale, cellulare, codice fiscale e il nome del plesso. Lo staff verifica la registrazione entro pochi giorni.',
  },
  {
    q: 'Le risposte degli studenti sono anonime?',
    a: 'Sì. Gli studenti rispondono con un codice di accesso di sette caratteri che non è collegato al loro nome; i risultati sono pubblicati solo per gruppi di almeno cinque persone.',
  },
  {
    q: 'Non ho ricevuto l’e-mail di conferma. Cosa faccio?',
    a: 'Controlla la cartella della posta indesiderata; se non la trovi puoi chiederne un nuovo invio dal portale dopo l’accesso, oppure scriverci con il modulo qui sotto.',
  },
  {
    q: 'Come posso esercitare i miei diritti sui dati personali?',
    a: `Scrivi a ${PROGRAMME.contacts.privacyEmail}: rispondiamo entro trenta giorni, come prevede il GDPR.`,
  },
];

function Faq() {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <section className="mb-5" aria-labelledby="faq-title">
      <h2 id="faq-title" className="h3 mb-3">
        Domande frequenti
      </h2>
      <Accordion>
        {FAQ.map((item, i) => (
          <AccordionItem key={item.q}>
            <AccordionHeader tag="h3" active={open === i} onToggle={() => setOpen(open === i ? null : i)}>
              {item.q}
            </AccordionHeader>
            <AccordionBody active={open === i}>{item.a}</AccordionBody>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}

/** Addresses, FAQ and the contact form. */
export function Component() {
  const page = useCurrentPage();
  const { contacts, offices } = PROGRAMME;
  return (
    <div className="container my-5">
      <PageHeader title={page.title} description={page.description} />
      <section className="mb-5" aria-labelledby="recapiti-title">
        <h2 id="recapiti-title" className="h3 mb-3">
          Recapiti
        </h2>
        <div className="row g-4">
          <div className="col-12 col-lg-4">
            <h3 className="h5">Assistenza alle scuole</h3>
            <p className="mb-1">
              E-mail: <a href={`mailto:${contacts.email}`}>{contacts.email}</a>
            </p>
            <p className="mb-1">Telefono: {contacts.phone}</p>
            <p>Orari: {contacts.phoneHours}.</p>
          </div>
          {offices.map((office) => (
            <div className="col-12 col-md-6 col-lg-4" key={office.city}>
              <h3 className="h5">{office.label}</h3>
              <address className="mb-1">{office.address}</address>
              <p>Ricevimento {office.hours}.</p>
            </div>
          ))}
        </div>
        <p>
          Per la privacy scrivi a <a href={`mailto:${contacts.privacyEmail}`}>{contacts.privacyEmail}</a>; per
          segnalare un problema di accessibilità vedi la{' '}
          <Link to="/dichiarazione-accessibilita">dichiarazione di accessibilità</Link>.
        </p>
      </section>
      <Faq />
      <div className="row">
        <div className="col-12 col-lg-8">
          <ContactForm />
        </div>
      </div>
    </div>
  );
}
