import { Link } from 'react-router';
import { PROGRAMME } from '@portale/shared/public';
import { Button } from 'design-react-kit';

const LEGAL_LINKS = [
  { to: '/risultati', label: 'Risultati' },
  { to: '/prenotazioni', label: 'Prenotazioni' },
  { to: '/privacy', label: 'Informativa privacy' },
  { to: '/note-legali', label: 'Note legali' },
  { to: '/policy/cookie', label: 'Cookie policy' },
  { to: '/dichiarazione-accessibilita', label: 'Dichiarazione di accessibilità' },
  { to: '/contatti', label: 'Contatti' },
];

/** Footer with the programme's legal data and the legal links required of Italian public-sector sites. */
export function AppFooter({ onOpenCookiePreferences }: { onOpenCookiePreferences: () => void }) {
  const { controller, partner, contacts } = PROGRAMME;
  return (
    <footer className="it-footer" id="footer">
      <div className="it-footer-main">
        <div className="container">
          <div className="row py-4 g-4">
            <div className="col-12 col-lg-5">
              <p className="h4 text-white mb-2">{PROGRAMME.name}</p>
              <p className="text-white mb-0">
                {PROGRAMME.fullName}, curato da {controller.name} e {partner.name}.
              </p>
            </div>
            <div className="col-12 col-md-6 col-lg-4 text-white">
              <p className="fw-semibold mb-1">Titolare del sito</p>
              <p className="mb-0">
                {controller.name}, {controller.address}
                <br />
                P. IVA {controller.vatNumber} – PEC {controller.certifiedEmail}
              </p>
            </div>
            <div className="col-12 col-md-6 col-lg-3 text-white">
              <p className="fw-semibold mb-1">Assistenza</p>
              <p className="mb-0">
                <a className="text-white" href={`mailto:${contacts.email}`}>
                  {contacts.email}
                </a>
                <br />
                Tel. {contacts.phone}
              </p>
            </div>
          </div>
        </div>
      </div>
      <div className="it-footer-small-prints clearfix">
        <div className="container">
          <h2 className="visually-hidden">Note legali e collegamenti utili</h2>
          <ul className="it-footer-small-prints-list list-inline mb-0 d-flex flex-column flex-md-row flex-wrap">
            {LEGAL_LINKS.map((link) => (
              <li className="list-inline-item" key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
            <li className="list-inline-item">
              <Button
                type="button"
                color="link"
                className="p-0 text-white footer-consent-link"
                onClick={onOpenCookiePreferences}
              >
                Preferenze cookie
              </Button>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
