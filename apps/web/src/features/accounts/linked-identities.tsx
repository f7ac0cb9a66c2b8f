import type { LinkedIdentities } from '@portale/shared/identity';

const PROVIDER_NAMES = { cie: 'CIE (Carta d’identità elettronica)', spid: 'SPID' } as const;
const when = (iso: string) =>
  new Date(iso).toLocaleString('it-IT', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Rome' });

/** The account's CIE/SPID identities and whether its codice fiscale is verified (decision 048). */
export function LinkedIdentitiesSection({ data }: { data: LinkedIdentities }) {
  return (
    <section className="mt-5" aria-labelledby="identities-title">
      <h2 id="identities-title" className="h4">
        Identità digitali collegate
      </h2>
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
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
