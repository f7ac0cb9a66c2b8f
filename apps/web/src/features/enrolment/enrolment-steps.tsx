// The enrolment's steps: their headings and the note of a verified phone.
import { useEffect, useRef } from 'react';
import { formatDateTime } from '../../lib/format.ts';

const STEPS = ['Verifica del cellulare', 'Scelta dell’istituto', 'Dati e plessi'] as const;

/** The step shown last on this page (null when the page is opened): a new step's heading takes the focus. */
let shownStep: number | null = null;

/** The page was left: opening it again later is not a step change. */
export function forgetShownStep(): void {
  shownStep = null;
}

/**
 * The heading of a step. When the step changes (the phone verified, the institute chosen), it takes the
 * focus, so that keyboard and screen reader users go on from the new step, not from the top of the page
 * (issue 34); not when the page is opened.
 */
export function StepHeading({ index, id }: { index: 0 | 1 | 2 | 3; id: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (shownStep !== null && shownStep !== index) ref.current?.focus();
    shownStep = index;
  }, [index]);
  if (index === 3) {
    return (
      <h2 ref={ref} id={id} tabIndex={-1} className="h3">
        Iscrizione completata
      </h2>
    );
  }
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="h3 mb-3">
      <span className="d-block small text-secondary fw-normal">
        Passo {index + 1} di {STEPS.length}
      </span>
      {STEPS[index]}
    </h2>
  );
}

export function VerifiedNote({
  phoneMasked,
  usableUntil,
}: {
  phoneMasked: string | null;
  usableUntil: string | null;
}) {
  return (
    <p className="small" data-testid="verified-phone">
      Cellulare verificato: {phoneMasked}
      {usableUntil ? `. Completa l’iscrizione entro il ${formatDateTime(usableUntil)}.` : '.'}
    </p>
  );
}
