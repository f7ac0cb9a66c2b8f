import { DELEGABLE_BY_USER_MANAGERS, grantsOf, type PermissionSubject } from '../auth/permissions.ts';

type Access = Pick<PermissionSubject, 'roles' | 'permissions'>;

/**
 * No escalation: a staff member gives only roles and permissions whose grants they hold themselves,
 * and acts only on users whose grants they hold (a user manager cannot suspend a more powerful one).
 * An `:own` grant (a detector's visits of their plessi, a principal's signature of their institute's
 * adhesion) reaches only records that staff link to that person; it is covered by the same `:any`
 * grant, and for a user manager by managing users: running the programme means creating detectors
 * and principals, whose powers over their own records the manager does not hold in person.
 */
export function coversGrants(actor: Access, other: Access): boolean {
  const own = grantsOf(actor);
  const managesUsers = own.has('manage:user:any');
  for (const grant of grantsOf(other)) {
    if (own.has(grant)) continue;
    if (grant.endsWith(':own') && (managesUsers || own.has(grant.replace(/:own$/, ':any') as typeof grant)))
      continue;
    if (managesUsers && DELEGABLE_BY_USER_MANAGERS.has(grant)) continue;
    return false;
  }
  return true;
}

/** Whether these roles and permissions still manage users: nobody may take that away from themselves. */
export function managesUsers(access: Access): boolean {
  return grantsOf(access).has('manage:user:any');
}

/** Italian messages of the rules of user management (API 403/409, shown as they are by the web). */
export const USER_ADMIN_MESSAGES = {
  notFound: 'Utente non trovato.',
  emailTaken: 'Esiste già un utente con questo indirizzo e-mail.',
  escalation: 'Non puoi assegnare ruoli o permessi che tu stesso non hai.',
  moreGrants: 'Non puoi gestire un utente che ha permessi che tu non hai.',
  selfSuspend: 'Non puoi sospendere il tuo stesso account.',
  selfAccessChange: 'Non puoi modificare i tuoi ruoli o i tuoi permessi: deve farlo un altro amministratore.',
  selfMfaReset: 'Non puoi azzerare il tuo secondo fattore: deve farlo un altro amministratore.',
  alreadySuspended: 'L’utente è già sospeso.',
  notSuspended: 'L’utente non è sospeso.',
  notLocked: 'L’accesso dell’utente non è bloccato.',
  noMfa: 'L’utente non ha configurato il secondo fattore.',
  alreadyMustChange: 'L’utente deve già cambiare la password al prossimo accesso.',
  alreadyVerified: 'L’indirizzo e-mail dell’utente è già verificato.',
  suspendedNoMail: 'L’utente è sospeso: riattivalo prima di inviargli messaggi.',
  resendTooSoon:
    'È appena stato inviato un collegamento di verifica a questo indirizzo: riprova tra qualche minuto.',
} as const;
