import type { UserAction, UserDetail } from '@portale/shared/users';
import { ConfirmButton } from '../../components/form/confirm-button.tsx';
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
  return (
    <ConfirmButton
      intent={action}
      label={texts.label}
      question={texts.confirm(name)}
      confirmLabel={`Conferma: ${texts.label.charAt(0).toLowerCase() + texts.label.slice(1)}`}
      openerClassName={`btn btn-sm ${texts.danger ? 'btn-outline-danger' : 'btn-outline-primary'}`}
      confirmClassName={`btn btn-sm ${texts.danger ? 'btn-danger' : 'btn-primary'}`}
      cancelClassName="btn btn-sm btn-outline-secondary"
      boxClassName="border rounded p-3 w-100"
      testId={`confirm-${action}`}
    />
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
