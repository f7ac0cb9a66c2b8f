import { Header, HeaderContent, HeaderRightZone } from 'design-react-kit';
import { Link, NavLink, useNavigate } from 'react-router';
import { REDIRECTS } from '@portale/shared/pages';
import type { SessionUser } from '@portale/shared/auth';
import { Button } from 'design-react-kit';
import { leaveFor } from '../lib/leave-site.ts';

const MAIN_NAV = [
  { to: '/', label: 'Home', end: true },
  { to: '/indagine', label: 'Indagine' },
  { to: '/documentazione', label: 'Documentazione' },
  { to: '/team', label: 'Team' },
  { to: '/contatti', label: 'Contatti' },
];

interface AppHeaderProps {
  user: SessionUser | null;
  /** Ends the session; a SPID session answers its identity provider's logout URL. */
  onLogout: () => Promise<string | null>;
}

/** The site's banner landmark: slim bar (programme, user zone), centre bar (brand) and the main navigation. */
export function AppHeader({ user, onLogout }: AppHeaderProps) {
  const navigate = useNavigate();
  const handleLogout = async () => {
    const providerLogoutUrl = await onLogout();
    // SAML single logout (decision 052): the provider ends its session too, then sends the browser home.
    if (providerLogoutUrl) leaveFor(providerLogoutUrl);
    else await navigate(REDIRECTS.logout);
  };
  return (
    // A <header> outside <main>: the banner landmark (design-react-kit's Headers is a plain div).
    <header className="it-header-wrapper">
      <Header type="slim">
        <HeaderContent>
          <span className="navbar-brand text-white">Programma nazionale di indagine nelle scuole</span>
          <HeaderRightZone>
            {user ? (
              <div className="d-flex align-items-center gap-3">
                <Link to="/portale" className="text-white fw-semibold" data-testid="user-name">
                  {user.firstName} {user.lastName}
                </Link>
                <Button type="button" color="light" outline size="sm" onClick={handleLogout}>
                  Esci
                </Button>
              </div>
            ) : (
              <Link to={REDIRECTS.login} className="btn btn-primary btn-sm btn-full">
                Accedi
              </Link>
            )}
          </HeaderRightZone>
        </HeaderContent>
      </Header>
      <div className="it-nav-wrapper">
        <Header type="center">
          <HeaderContent>
            <div className="it-brand-wrapper">
              <Link to="/">
                <div className="it-brand-text">
                  <div className="it-brand-title">Portale Scuole</div>
                  <div className="it-brand-tagline d-none d-md-block">
                    Le scuole italiane per l’indagine nazionale
                  </div>
                </div>
              </Link>
            </div>
          </HeaderContent>
        </Header>
        <nav className="bg-primary" aria-label="Navigazione principale">
          <div className="container-xxl">
            <ul className="nav main-nav">
              {MAIN_NAV.map((item) => (
                <li className="nav-item" key={item.to}>
                  <NavLink to={item.to} end={item.end} className="nav-link text-white px-3 py-2">
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        </nav>
      </div>
    </header>
  );
}
