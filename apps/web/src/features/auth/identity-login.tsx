import { useEffect, useState } from 'react';
import { cieStart, identityProviders, type IdentityProviders } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { apiOrigin } from '../../lib/config.ts';
import { SpidLoginButton } from './spid-login-button.tsx';

/** The words around the buttons: the login page's (default), or the registration's. */
const COPY = {
  login: {
    title: 'Accedi con la tua identità digitale',
    intro:
      'Con SPID o con la Carta d’identità elettronica il portale riceve il tuo codice fiscale già verificato.',
  },
  registration: {
    title: 'Registrati con la tua identità digitale',
    intro:
      'Con SPID o con la Carta d’identità elettronica nome, cognome e codice fiscale arrivano già verificati: se hai già un account con lo stesso codice fiscale, entri in quello.',
  },
} as const;

/**
 * "Entra con SPID" and "Entra con CIE": navigations to the API, which sends the browser to the
 * provider (decisions 048, 052). Each is shown only when the API says it is configured; nothing
 * while that is not known, or when neither is. On the registration pages (`for="registration"`) the
 * same buttons, under an h3 of the registration's section: a new person comes back to the
 * registration prefilled (the linking rules of decision 048).
 */
export function IdentityLogin({ for: context = 'login' }: { for?: keyof typeof COPY }) {
  const [providers, setProviders] = useState<IdentityProviders | null>(null);
  useEffect(() => {
    let live = true;
    callApi(identityProviders, {})
      .then((answer) => live && setProviders(answer))
      .catch(() => live && setProviders(null));
    return () => {
      live = false;
    };
  }, []);
  if (!providers || (!providers.cie && !providers.spid)) return null;
  const Heading = context === 'login' ? 'h2' : 'h3';
  return (
    <div className={context === 'login' ? 'mt-5 pt-4 border-top' : 'my-4 pb-4 border-bottom'}>
      <Heading className="h5">{COPY[context].title}</Heading>
      <p>{COPY[context].intro}</p>
      <div className="d-flex flex-wrap gap-3 align-items-start">
        {providers.spid && <SpidLoginButton providers={providers.spidProviders} />}
        {providers.cie && (
          <a className="btn btn-outline-primary" href={`${apiOrigin()}${cieStart.path}`}>
            Entra con CIE
          </a>
        )}
      </div>
    </div>
  );
}
