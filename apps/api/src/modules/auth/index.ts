// The face of modules/auth: what other modules may import from it (decision 044). Nothing else leaves it.
export {
  accountKey,
  assertLoginAllowed,
  clearAccountThrottle,
  clearSecondFactorThrottle,
  ipKey,
  recordLoginFailure,
  secondFactorKey,
  withAccountLock,
} from './login-throttle.ts';
export { revokeSession, revokeUserSessions } from './tokens.repository.ts';
export { openLoginSession, type SessionExtras } from './login-session.ts';
export { lacksSecondFactor } from './mfa-login.ts';
export { findLoginAccount } from './login.repository.ts';
