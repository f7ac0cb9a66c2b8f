import { useEffect, useState } from 'react';
import { cieStart, identityProviders, type IdentityProviders } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { apiOrigin } from '../../lib/config.ts';
import { SpidLoginButton } from './spid-login-button.tsx';

/**
 * "Entra con SPID" and "Entra con CIE": navigations to the API, which sends the browser to the
 * provider (decisions 048, 052). Each is shown only when the API says it is configured; nothing
 * while that is not known, or when neither is.
 */
export function IdentityLogin() {
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
  return (
    <div className="mt-5 pt-4 border-top">
      <h2 className="h5">Accedi con la tua identità digitale</h2>
      <p>
        Con SPID o con la Carta d’identità elettronica il portale riceve il tuo codice fiscale già verificato.
      </p>
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
