import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Form, useNavigation } from 'react-router';

export interface ConfirmButtonProps {
  /** The opener's text ("Disattiva"). */
  label: ReactNode;
  /** What will happen, asked before doing it. */
  question: ReactNode;
  /** The confirming submit's text ("Conferma: disattiva"). */
  confirmLabel: ReactNode;
  /** The `intent` the form posts to the page's action. */
  intent: string;
  /**
   * Instead of posting to the page's action, call this (a component that loads its own data, such as
   * a visit's photos on two pages); the question closes when it settles.
   */
  onConfirm?: () => Promise<void>;
  /** More hidden fields posted with the intent. */
  fields?: Record<string, string>;
  openerClassName?: string;
  confirmClassName?: string;
  cancelClassName?: string;
  boxClassName?: string;
  testId?: string;
}

/**
 * A button that asks before it posts: the opener becomes a focused group with the question, the
 * confirming submit and "Annulla"; after a cancel or a submission the focus goes back to the opener.
 */
export function ConfirmButton({
  label,
  question,
  confirmLabel,
  intent,
  fields = {},
  onConfirm,
  openerClassName = 'btn btn-outline-primary',
  confirmClassName = 'btn btn-primary',
  cancelClassName = 'btn btn-outline-secondary',
  boxClassName = 'border rounded p-3',
  testId,
}: ConfirmButtonProps) {
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const navigation = useNavigation();
  const busy =
    running || (navigation.state === 'submitting' && navigation.formData?.get('intent') === intent);
  const box = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  const id = useId();
  useEffect(() => {
    if (confirming) box.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  if (!confirming) {
    return (
      <button ref={opener} type="button" className={openerClassName} onClick={() => setConfirming(true)}>
        {label}
      </button>
    );
  }
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-question`}
      className={boxClassName}
      {...(testId ? { 'data-testid': testId } : {})}
    >
      <p id={`${id}-question`} className="mb-2">
        {question}
      </p>
      <Form
        method="post"
        preventScrollReset
        className="d-flex flex-wrap gap-2"
        onSubmit={(event) => {
          if (!onConfirm) return void setTimeout(() => setConfirming(false));
          event.preventDefault();
          setRunning(true);
          void onConfirm().finally(() => {
            setRunning(false);
            setConfirming(false);
          });
        }}
      >
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={confirmClassName} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className={cancelClassName} onClick={() => setConfirming(false)}>
          Annulla
        </button>
      </Form>
    </div>
  );
}
