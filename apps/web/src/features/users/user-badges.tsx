import { USER_STATUS_LABELS, type UserSummary } from '@portale/shared/users';

/** Status of an account at a glance: suspended, login locked, password to change. */
export function UserStatusBadges({
  user,
}: {
  user: Pick<UserSummary, 'status' | 'locked'> & { mustChangePassword?: boolean };
}) {
  return (
    <span className="d-inline-flex flex-wrap gap-1">
      <span className={`badge ${user.status === 'active' ? 'bg-success' : 'bg-danger'}`}>
        {USER_STATUS_LABELS[user.status]}
      </span>
      {user.locked && <span className="badge bg-warning">Accesso bloccato</span>}
      {user.mustChangePassword && (
        <span className="badge bg-light text-dark border">Deve cambiare la password</span>
      )}
    </span>
  );
}
