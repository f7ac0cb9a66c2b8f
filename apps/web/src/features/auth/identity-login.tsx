import { useEffect, useState } from 'react';
import { cieStart, identityProviders } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';
import { apiOrigin } from '../../lib/config.ts';

/**
 * "Entra con CIE": a navigation to the API, which sends the browser to the provider (decision 048).
 * Shown only when the API says CIE is configured; nothing while it is not known or not configured.
 */
export function CieLoginLink() {
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let live = true;
    callApi(identityProviders, {})
      .then((providers) => live && setEnabled(providers.cie))
      .catch(() => live && setEnabled(false));
    return () => {
      live = false;
    };
  }, []);
  if (!enabled) return null;
  return (
    <div className="mt-5 pt-4 border-top">
      <h2 className="h5">Accedi con la tua identità digitale</h2>
      <p>Con la Carta d’identità elettronica il portale riceve il tuo codice fiscale già verificato.</p>
      <a className="btn btn-outline-primary" href={`${apiOrigin()}${cieStart.path}`}>
        Entra con CIE
      </a>
    </div>
  );
}
