import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { spidStart, type SpidProvider } from '@portale/shared/identity';
import { apiOrigin } from '../../lib/config.ts';

/** AgID's links under the provider list of the SPID button. */
const SPID_LINKS = [
  { href: 'https://www.spid.gov.it', label: 'Maggiori informazioni su SPID' },
  { href: 'https://www.spid.gov.it/cos-e-spid/come-attivare-spid/', label: 'Non hai SPID?' },
  { href: 'https://www.spid.gov.it/serve-aiuto', label: 'Serve aiuto?' },
] as const;

/** AgID asks the providers to be listed in a random order (none favoured); once per page view. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * "Entra con SPID" in AgID's layout (decision 052): the button opens the list of the configured
 * identity providers (a disclosure: a real button with aria-expanded, the list below it, Escape
 * closes it and gives the focus back), then AgID's three links. Each provider is a navigation to
 * the API's start, which sends a signed AuthnRequest to it. Names as text (no vendored logos).
 */
export function SpidLoginButton({ providers }: { providers: readonly SpidProvider[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const ordered = useMemo(() => shuffled(providers), [providers]);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="spid-login" onKeyDown={closeOnEscape}>
      <button
        ref={button}
        type="button"
        className="btn btn-primary"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
      >
        Entra con SPID
      </button>
      <div id={listId} hidden={!open} className="mt-2 border rounded p-3 bg-white">
        <p className="small mb-2">Scegli il tuo gestore dell’identità digitale:</p>
        <ul className="list-unstyled mb-3">
          {ordered.map((provider) => (
            <li key={provider.id} className="mb-1">
              <a href={`${apiOrigin()}${spidStart.path}?idp=${encodeURIComponent(provider.id)}`}>
                {provider.name}
              </a>
            </li>
          ))}
        </ul>
        <ul className="list-unstyled small mb-0 border-top pt-2">
          {SPID_LINKS.map((link) => (
            <li key={link.href}>
              <a href={link.href} target="_blank" rel="noreferrer">
                {link.label}
                <span className="visually-hidden"> (si apre in una nuova scheda)</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
