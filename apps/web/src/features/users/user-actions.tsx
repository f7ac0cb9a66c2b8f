import { useEffect, useId, useRef, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import type { UserAction, UserDetail } from '@portale/shared/users';
import { USER_ACTION_TEXTS } from './user-labels.ts';

/** The actions that make sense for this user now (a suspended user cannot be suspended…). */
export function availableActions(user: UserDetail, isSelf: boolean): UserAction[] {
  const actions: UserAction[] = [];
  if (user.status === 'active' && !isSelf) actions.push('suspend');
  if (user.status === 'suspended') actions.push('reactivate');
  if (user.locked) actions.push('unlock');
  // One's own second factor is reset by another administrator (the API refuses it: 403 self_access_change).
  if (user.mfaEnrolled && !isSelf) actions.push('mfa-reset');
  if (!user.mustChangePassword) actions.push('force-password-change');
  if (!user.emailVerified && user.status === 'active') actions.push('resend-verification');
  return actions;
}

/** One action: a button, then a confirmation that says what will happen, with Conferma and Annulla. */
function ActionControl({ action, name }: { action: UserAction; name: string }) {
  const texts = USER_ACTION_TEXTS[action];
  const [confirming, setConfirming] = useState(false);
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && navigation.formData?.get('intent') === action;
  const box = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();
  const wasConfirming = useRef(false);
  // Focus follows the dialogue: into the confirmation, and back to the button when it closes.
  useEffect(() => {
    if (confirming) box.current?.focus();
    else if (wasConfirming.current) opener.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  if (!confirming) {
    return (
      <button
        ref={opener}
        type="button"
        className={`btn btn-sm ${texts.danger ? 'btn-outline-danger' : 'btn-outline-primary'}`}
        onClick={() => setConfirming(true)}
      >
        {texts.label}
      </button>
    );
  }
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="group"
      aria-labelledby={`${id}-question`}
      className="border rounded p-3 w-100"
      data-testid={`confirm-${action}`}
    >
      <p id={`${id}-question`} className="mb-2">
        {texts.confirm(name)}
      </p>
      <Form
        method="post"
        preventScrollReset
        className="d-flex flex-wrap gap-2"
        onSubmit={() => setTimeout(() => setConfirming(false))}
      >
        <input type="hidden" name="intent" value={action} />
        <button
          type="submit"
          className={`btn btn-sm ${texts.danger ? 'btn-danger' : 'btn-primary'}`}
          disabled={busy}
        >
          Conferma: {texts.label.charAt(0).toLowerCase() + texts.label.slice(1)}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => setConfirming(false)}
        >
          Annulla
        </button>
      </Form>
    </div>
  );
}

/** The account actions of a user, each asking for confirmation first. */
export function UserActions({ user, isSelf }: { user: UserDetail; isSelf: boolean }) {
  const actions = availableActions(user, isSelf);
  const name = `${user.firstName} ${user.lastName}`;
  if (actions.length === 0) return <p>Nessuna azione disponibile per questo utente.</p>;
  return (
    <div className="d-flex flex-wrap gap-2" data-testid="user-actions">
      {actions.map((action) => (
        <ActionControl key={action} action={action} name={name} />
      ))}
    </div>
  );
}
