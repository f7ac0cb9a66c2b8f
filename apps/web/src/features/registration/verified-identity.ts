import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { pendingIdentity, type PendingIdentity } from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';

/** The query that brings the registration from the CIE result page (decision 048). */
export const VERIFIED_IDENTITY_QUERY = 'identita';

/**
 * The identity verified with CIE that this registration completes: the API keeps it for this browser
 * (HttpOnly cookie) and the registration takes its name, surname and codice fiscale. Null when the page
 * was not opened from the CIE result page, or the identity has expired.
 */
export function useVerifiedIdentity(): PendingIdentity | null {
  const [params] = useSearchParams();
  const wanted = params.get(VERIFIED_IDENTITY_QUERY) === 'cie';
  const [identity, setIdentity] = useState<PendingIdentity | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    callApi(pendingIdentity, {})
      .then((found) => live && found.kind === 'register' && setIdentity(found))
      .catch(() => live && setIdentity(null));
    return () => {
      live = false;
    };
  }, [wanted]);
  return identity;
}
