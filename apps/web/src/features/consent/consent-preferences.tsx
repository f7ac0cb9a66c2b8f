import { useEffect, useRef, useState } from 'react';
import { Button } from 'design-react-kit';
import { CONSENT_CONFIG, COOKIE_GROUPS } from './consent-config.ts';
import { closePreferences, decide, focusMainContent, useConsent } from './consent-store.ts';

/** The granular choice, in a modal dialog: no optional box is pre-ticked; focus is trapped and restored. */
export function ConsentPreferences() {
  const { enabledIds } = useConsent();
  const [selected, setSelected] = useState<string[]>(() =>
    CONSENT_CONFIG.optional.filter((id) => enabledIds.includes(id)),
  );
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Back to the opener; when the choice closed the banner with it, to the page's content.
    return () => (opener?.isConnected ? opener.focus() : focusMainContent());
  }, []);
  const toggle = (id: string, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((x) => x !== id)));
  return (
    <dialog
      ref={dialog}
      className="consent-dialog"
      aria-labelledby="consent-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        closePreferences();
      }}
    >
      <div className="d-flex justify-content-between align-items-start gap-3">
        <h2 id="consent-dialog-title" className="h4">
          Personalizza i cookie
        </h2>
        <Button
          type="button"
          color="link"
          className="p-1 fs-4 lh-1"
          aria-label="Chiudi senza salvare"
          onClick={closePreferences}
        >
          <span aria-hidden="true">×</span>
        </Button>
      </div>
      <p>Scegli quali cookie facoltativi vuoi consentire. Quelli tecnici sono necessari e sempre attivi.</p>
      <fieldset className="mb-3">
        <legend className="visually-hidden">Categorie di cookie</legend>
        {COOKIE_GROUPS.map((group) => {
          const necessary = (CONSENT_CONFIG.necessary as readonly string[]).includes(group.id);
          return (
            <div className="form-check mb-3" key={group.id}>
              <input
                id={`consent-${group.id}`}
                type="checkbox"
                checked={necessary || selected.includes(group.id)}
                disabled={necessary}
                aria-describedby={`consent-${group.id}-desc`}
                onChange={(event) => toggle(group.id, event.target.checked)}
              />
              <label htmlFor={`consent-${group.id}`} className="fw-semibold">
                {group.label}
              </label>
              <p id={`consent-${group.id}-desc`} className="small mb-0 ms-5">
                {group.description}
              </p>
            </div>
          );
        })}
      </fieldset>
      <div className="consent-actions">
        <Button type="button" color="primary" onClick={() => void decide('custom', selected)}>
          Salva le scelte
        </Button>
        <Button type="button" color="primary" onClick={() => void decide('accept_all')}>
          Accetta tutti
        </Button>
        <Button type="button" color="primary" onClick={() => void decide('reject')}>
          Rifiuta tutti
        </Button>
      </div>
    </dialog>
  );
}
