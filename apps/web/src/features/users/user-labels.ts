import { PERMISSION_LABELS, PERMISSIONS, ROLE_LABELS, ROLES } from '@portale/shared/auth';
import {
  USER_STATUS_LABELS,
  USER_STATUSES,
  type LastLogin,
  type LoginMethodName,
  type UserAction,
} from '@portale/shared/users';
import type { SelectFilter } from '../../components/data-table/filter-bar.tsx';

export const LOGIN_METHOD_LABELS: Record<LoginMethodName, string> = {
  password: 'e-mail e password',
  mfa: 'e-mail, password e codice TOTP',
  cie: 'CIE',
  spid: 'SPID',
};

/** «SPID, livello 2» from the provider's `acr` (`…/SpidL2`); the method alone without one. */
export function lastLoginLabel(login: Pick<LastLogin, 'method' | 'acr'>): string {
  const level = login.acr ? /SpidL(\d)$/.exec(login.acr)?.[1] : undefined;
  return level ? `${LOGIN_METHOD_LABELS[login.method]}, livello ${level}` : LOGIN_METHOD_LABELS[login.method];
}

export const ROLE_FILTER: SelectFilter = {
  name: 'role',
  label: 'Ruolo',
  anyLabel: 'Tutti i ruoli',
  options: ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
};

export const PERMISSION_FILTER: SelectFilter = {
  name: 'permission',
  label: 'Permesso diretto',
  anyLabel: 'Con o senza permessi',
  options: PERMISSIONS.map((p) => ({ value: p, label: PERMISSION_LABELS[p] })),
};

export const STATUS_FILTER: SelectFilter = {
  name: 'status',
  label: 'Stato',
  anyLabel: 'Attivi e sospesi',
  options: USER_STATUSES.map((s) => ({ value: s, label: USER_STATUS_LABELS[s] })),
};

export const LOCKED_FILTER: SelectFilter = {
  name: 'locked',
  label: 'Accesso',
  anyLabel: 'Bloccato o no',
  options: [
    { value: 'true', label: 'Bloccato per troppi tentativi' },
    { value: 'false', label: 'Non bloccato' },
  ],
};

/** Italian names of the user fields the audit shows. */
export const USER_FIELD_LABELS: Record<string, string> = {
  firstName: 'Nome',
  lastName: 'Cognome',
  email: 'E-mail',
  roles: 'Ruoli',
  permissions: 'Permessi diretti',
  status: 'Stato',
  sessionsRevoked: 'Sessioni chiuse',
  lockedUntil: 'Bloccato fino a',
  mfaEnrolled: 'Secondo fattore configurato',
  mustChangePassword: 'Deve cambiare la password',
  kind: 'Tipo di registrazione',
  schoolSiteId: 'Plesso',
};

export const USER_AUDIT_ACTION_LABELS: Record<string, string> = {
  'user.created': 'Creazione dell’utente',
  'user.updated': 'Modifica di dati, ruoli o permessi',
  'user.suspended': 'Sospensione',
  'user.reactivated': 'Riattivazione',
  'auth.login.unlocked': 'Sblocco dell’accesso',
  'auth.mfa.reset': 'Azzeramento del secondo fattore',
  'user.password_change_forced': 'Cambio password obbligatorio',
  'user.verification_resent': 'Nuovo invio della verifica e-mail',
  'account.registered': 'Registrazione',
  'account.email.verified': 'Verifica dell’e-mail',
  'auth.password.reset_requested': 'Richiesta di una nuova password',
  'auth.password.reset': 'Nuova password con il collegamento',
  'auth.password.changed': 'Cambio della password',
  'institute.updated': 'Modifica dei dati di un istituto',
  'school-site.updated': 'Modifica dei dati di un plesso',
};

/** Each action of the user page: its button, what the confirmation says, and its tone. */
export const USER_ACTION_TEXTS: Record<
  UserAction,
  { label: string; confirm: (name: string) => string; danger?: boolean }
> = {
  suspend: {
    label: 'Sospendi l’utente',
    confirm: (name) =>
      `${name} non potrà più accedere e tutte le sue sessioni saranno chiuse subito. Confermi la sospensione?`,
    danger: true,
  },
  reactivate: {
    label: 'Riattiva l’utente',
    confirm: (name) => `${name} potrà di nuovo accedere al portale. Confermi la riattivazione?`,
  },
  unlock: {
    label: 'Sblocca l’accesso',
    confirm: (name) => `${name} potrà riprovare subito ad accedere. Confermi lo sblocco?`,
  },
  'mfa-reset': {
    label: 'Azzera il secondo fattore',
    confirm: (name) =>
      `${name} dovrà configurare di nuovo l’app di autenticazione al prossimo accesso e riceverà un’e-mail. Confermi?`,
    danger: true,
  },
  'force-password-change': {
    label: 'Obbliga a cambiare la password',
    confirm: (name) =>
      `Al prossimo accesso ${name} dovrà scegliere una nuova password prima di ogni altra cosa. Confermi?`,
  },
  'resend-verification': {
    label: 'Invia di nuovo la verifica e-mail',
    confirm: (name) =>
      `${name} riceverà un nuovo collegamento per verificare l’indirizzo e-mail. Confermi l’invio?`,
  },
};
