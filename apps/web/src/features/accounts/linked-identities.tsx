import { Button } from 'design-react-kit';
import { Form } from 'react-router';
import type { LinkedIdentities } from '@portale/shared/identity';
import { FormMessage } from '../../components/form/form-message.tsx';
import type { FormResult } from '../../lib/form-data.ts';

export const UNLINK_IDENTITY_INTENT = 'unlink-identity';

const PROVIDER_NAMES = { cie: 'CIE (Carta d’identità elettronica)', spid: 'SPID' } as const;
const when = (iso: string) =>
  new Date(iso).toLocaleString('it-IT', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Rome' });

/** The account's CIE/SPID identities and whether its codice fiscale is verified (decision 048). */
export function LinkedIdentitiesSection({
  data,
  result,
}: {
  data: LinkedIdentities;
  result?: FormResult | undefined;
}) {
  return (
    <section className="mt-5" aria-labelledby="identities-title">
      <h2 id="identities-title" className="h4">
        Identità digitali collegate
      </h2>
      <FormMessage tone={result?.ok ? 'success' : 'danger'} message={result?.message} />
      {data.taxCodeVerifiedAt && data.taxCodeVerifiedSource && (
        <p>
          Codice fiscale verificato con {data.taxCodeVerifiedSource.toUpperCase()} il{' '}
          {when(data.taxCodeVerifiedAt)}.
        </p>
      )}
      {data.identities.length === 0 ? (
        <p>
          Nessuna identità collegata. Entrando con CIE dalla pagina di accesso la colleghi a questo account.
        </p>
      ) : (
        <ul>
          {data.identities.map((identity) => (
            <li key={`${identity.provider}-${identity.linkedAt}`}>
              {PROVIDER_NAMES[identity.provider]}, codice fiscale{' '}
              <span className="font-monospace">{identity.taxCode}</span>: collegata il{' '}
              {when(identity.linkedAt)}
              {identity.lastLoginAt ? `, ultimo accesso il ${when(identity.lastLoginAt)}` : ''}.
              <Form method="post" className="d-inline ms-2">
                <input type="hidden" name="intent" value={UNLINK_IDENTITY_INTENT} />
                <input type="hidden" name="provider" value={identity.provider} />
                <Button color="danger" outline size="sm" type="submit">
                  Scollega {identity.provider.toUpperCase()}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {data.identities.length > 0 && (
        <p className="small">Scollegando l’identità potrai sempre entrare con e-mail e password.</p>
      )}
    </section>
  );
}
