import { href, type PageId } from '@portale/shared/pages';

// What the web remembers, in this tab only (sessionStorage), across the trip to SPID/CIE and back:
// the registration landing the person was on, and that a verified identity is waiting in this
// browser (the API's cookie naming it is HttpOnly, so the web cannot see it).
const REGISTRATION_PAGE = 'portale.identity.registrationPage';
const PENDING_UNTIL = 'portale.identity.pendingUntil';

const REGISTRATION_PAGES: readonly PageId[] = [
  'landing.registration.teacher',
  'landing.registration.educator',
  'landing.registration.other',
];

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage refused (privacy mode): the defaults apply.
  }
}

/** The registration landing shown: its kind is the one the SPID/CIE registration offer leads back to. */
export function rememberRegistrationPage(pageId: PageId) {
  if (REGISTRATION_PAGES.includes(pageId)) write(REGISTRATION_PAGE, pageId);
}

/** The registration landing the person was on (the teacher's when none). */
export function registrationPagePath(): string {
  const remembered = read(REGISTRATION_PAGE) as PageId | null;
  return href(
    remembered && REGISTRATION_PAGES.includes(remembered) ? remembered : 'landing.registration.teacher',
  );
}

/** A verified identity waits in this browser until `expiresAt` (the result page saw it). */
export function rememberPendingIdentity(expiresAt: string) {
  write(PENDING_UNTIL, expiresAt);
}

export function forgetPendingIdentity() {
  write(PENDING_UNTIL, null);
}

/** Whether a verified identity may still wait in this browser: otherwise nothing asks the API for it. */
export function mayHavePendingIdentity(now = Date.now()): boolean {
  const until = Date.parse(read(PENDING_UNTIL) ?? '');
  return Number.isFinite(until) && until > now;
}
