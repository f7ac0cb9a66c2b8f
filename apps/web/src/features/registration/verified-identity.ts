import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  IDENTITY_PROVIDER_NAMES,
  pendingIdentity,
  VERIFIED_IDENTITY_QUERY,
  type PendingIdentity,
} from '@portale/shared/identity';
import { callApi } from '../../lib/api-client.ts';

/**
 * The identity verified with SPID or CIE that this registration completes: the API keeps it for this
 * browser (HttpOnly cookie) and the registration takes its name, surname and codice fiscale (and offers
 * the e-mail and phone the provider gave). Null when the page was not opened from the result page, or
 * the identity has expired.
 */
export function useVerifiedIdentity(): PendingIdentity | null {
  const [params] = useSearchParams();
  const wanted = (IDENTITY_PROVIDER_NAMES as readonly string[]).includes(
    params.get(VERIFIED_IDENTITY_QUERY) ?? '',
  );
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
