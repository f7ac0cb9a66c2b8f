import { useEffect } from 'react';
import { Link } from 'react-router';
import { Button } from 'design-react-kit';
import { ConsentPreferences } from './consent-preferences.tsx';
import { decide, focusMainContent, openPreferences, startConsent, useConsent } from './consent-store.ts';

/** A choice from the banner, then the focus on the page's content: the banner and its buttons are gone (issue 34). */
async function choose(choice: 'accept_all' | 'reject') {
  const recorded = decide(choice);
  focusMainContent();
  await recorded;
}

/**
 * First-visit banner, as an overlay (no layout shift): 'Accetta tutti', 'Rifiuta' and 'Personalizza'
 * equally prominent, the X counts as a refusal; scrolling is not consent and no page is ever blocked.
 */
export function ConsentBanner() {
  // Not at build time (prerendered home): the stored choice exists only in a browser.
  if (typeof document !== 'undefined') startConsent();
  const { bannerOpen, preferencesOpen, choices } = useConsent();
  useEffect(() => {
    document.body.classList.toggle('has-consent-banner', bannerOpen);
  }, [bannerOpen]);
  return (
    <>
      {bannerOpen && (
        <section
          className="consent-banner shadow-lg"
          aria-labelledby="consent-banner-title"
          data-testid="consent-banner"
        >
          <div className="container-xxl position-relative py-3">
            <Button
              type="button"
              color="link"
              className="consent-banner-close p-1"
              aria-label="Chiudi e rifiuta i cookie facoltativi"
              onClick={() => void choose('reject')}
            >
              <span aria-hidden="true">×</span>
            </Button>
            <h2 id="consent-banner-title" className="h5 mb-2 pe-5">
              Questo sito usa cookie
            </h2>
            <p className="mb-3 pe-md-5">
              Usiamo cookie tecnici necessari al funzionamento del sito e, solo se lo accetti, cookie
              analitici di Google Analytics per capire in forma aggregata come viene usato. Puoi rifiutare
              senza conseguenze e cambiare idea quando vuoi dalla{' '}
              <Link to="/policy/cookie">cookie policy</Link>.
            </p>
            <div className="consent-actions">
              <Button type="button" color="primary" onClick={() => void choose('accept_all')}>
                Accetta tutti
              </Button>
              <Button type="button" color="primary" onClick={() => void choose('reject')}>
                Rifiuta
              </Button>
              <Button type="button" color="primary" onClick={openPreferences}>
                Personalizza
              </Button>
            </div>
          </div>
        </section>
      )}
      {preferencesOpen && <ConsentPreferences />}
      <div className="visually-hidden" role="status" aria-live="polite">
        {choices > 0 ? 'La tua scelta sui cookie è stata salvata.' : ''}
      </div>
    </>
  );
}
