import { useEffect, useId, useState } from 'react';
import type { SchoolSiteOption } from '@portale/shared/accounts';
import { SCHOOL_LEVEL_LABELS, type SchoolLevel } from '@portale/shared/registry';
import { callApi } from '../lib/api-client.ts';
import { InputField } from './form/input-field.tsx';

/**
 * The search contract comes with the account schemas (and the phone-number metadata they validate with,
 * about 36 KB gzip), which a page with this picker does not need for its first paint: they load when
 * the search field is first focused or searched. A failed load is tried again next time.
 */
let accounts: Promise<typeof import('@portale/shared/accounts')> | undefined;
function loadAccounts() {
  accounts ??= import('@portale/shared/accounts').catch((error: unknown) => {
    accounts = undefined;
    throw error;
  });
  return accounts;
}
const preloadAccounts = () => void loadAccounts().catch(() => {});

/** Plesso search over the national registry (name, comune or codice meccanografico) with a radio list. */
export function SchoolSitePicker({
  name = 'schoolSiteId',
  error,
  required = false,
}: {
  name?: string;
  error?: string | undefined;
  required?: boolean;
}) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<SchoolSiteOption[] | null>(null);
  const [selected, setSelected] = useState<SchoolSiteOption | null>(null);

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setItems(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      loadAccounts()
        .then(({ searchSchoolSiteOptions }) =>
          callApi(searchSchoolSiteOptions, { query: { q } }, { signal: controller.signal }),
        )
        .then((body) => setItems(body.items))
        .catch(() => setItems([]));
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const errorId = `${id}-error`;
  // The error is said under the results, so the search box points at it itself.
  const invalid = error ? { 'aria-invalid': true as const, 'aria-describedby': errorId } : {};
  return (
    <fieldset className="mb-4">
      <legend className="h6">Plesso scolastico{required ? '' : ' (facoltativo)'}</legend>
      {/* Not a floating bootstrap-italia label (.form-group): floated up, it covered the legend above. */}
      <InputField
        id={`${id}-q`}
        type="search"
        label="Cerca il plesso per nome, comune o codice meccanografico"
        fieldClassName="mb-2"
        labelClassName="form-label"
        value={query}
        onFocus={preloadAccounts}
        onChange={(e) => setQuery(e.target.value)}
        autoComplete="off"
        {...invalid}
      />
      <input type="hidden" name={name} value={selected?.id ?? ''} />
      <p className="small" aria-live="polite" data-testid="school-site-status">
        {selected
          ? `Plesso scelto: ${selected.name} (${selected.ministryCode}), ${selected.municipalityName}.`
          : items === null
            ? 'Scrivi almeno 2 caratteri.'
            : `${items.length} ${items.length === 1 ? 'risultato' : 'risultati'}.`}
      </p>
      {items && items.length > 0 && (
        <ul
          className="list-unstyled border rounded p-2"
          style={{ maxHeight: 260, overflowY: 'auto' }}
          aria-label="Risultati della ricerca"
        >
          {items.map((site) => (
            <li key={site.id} className="form-check my-1">
              <input
                className="form-check-input"
                type="radio"
                id={`${id}-${site.id}`}
                name={`${name}-choice`}
                checked={selected?.id === site.id}
                onChange={() => setSelected(site)}
              />
              <label className="form-check-label" htmlFor={`${id}-${site.id}`}>
                {site.name} – {site.municipalityName} ({site.province}) · {site.ministryCode} ·{' '}
                {SCHOOL_LEVEL_LABELS[site.schoolLevel as SchoolLevel] ?? site.schoolLevel}
              </label>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p id={errorId} className="text-danger small">
          {error}
        </p>
      )}
    </fieldset>
  );
}
