import { ERROR_MESSAGES } from '@portale/shared/http';
import { isEmbedded, type Db } from '../../db/client.ts';
import { HttpError } from '../../lib/http-error.ts';
import {
  countFailure,
  deleteThrottle,
  findThrottles,
  inAdvisoryLockTransaction,
  lockKeyUntil,
} from './login-throttle.repository.ts';

export interface ThrottlePolicy {
  slowDownAfter: number;
  lockAfter: number;
  lockMinutes: number;
  ipMaxFailures: number;
}

/** Failures older than this no longer count. */
const WINDOW_MS = 15 * 60 * 1000;

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `ip:${ip}`;
/**
 * The second factor's own count, per account across every challenge (issue 32, defect 5): a right
 * password opens a new challenge each time, so only an account-wide count bounds the guesses.
 */
export const secondFactorKey = (userId: number) => `mfa:${userId}`;

/** Seconds to wait after the n-th consecutive failure once slow-down applies (1, 2, 4 … 60). */
function backoffSeconds(failures: number, policy: ThrottlePolicy): number {
  return Math.min(60, 2 ** Math.max(0, failures - policy.slowDownAfter));
}

function retryError(message: string, untilMs: number, nowMs: number) {
  const seconds = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new HttpError(429, 'too_many_attempts', message, { 'retry-after': String(seconds) });
}

/** Refuses the attempt (429 with Retry-After) while the account is locked, slowed down, or the IP flooded. */
export async function assertLoginAllowed(
  db: Db,
  keys: { account: string; ip: string },
  now: Date,
  policy: ThrottlePolicy,
) {
  const rows = await findThrottles(db, [keys.account, keys.ip]);
  const nowMs = now.getTime();
  for (const row of rows) {
    const fresh = nowMs - row.lastFailureAt.getTime() < WINDOW_MS;
    if (row.key === keys.account) {
      if (row.lockedUntil && row.lockedUntil.getTime() > nowMs) {
        throw retryError(ERROR_MESSAGES.accountLocked, row.lockedUntil.getTime(), nowMs);
      }
      if (fresh && row.failures >= policy.slowDownAfter) {
        const until = row.lastFailureAt.getTime() + backoffSeconds(row.failures, policy) * 1000;
        if (until > nowMs) throw retryError(ERROR_MESSAGES.tooManyAttempts, until, nowMs);
      }
    } else if (fresh && row.failures >= policy.ipMaxFailures) {
      throw retryError(ERROR_MESSAGES.tooManyAttempts, row.lastFailureAt.getTime() + WINDOW_MS, nowMs);
    }
  }
}

/** Counts a failure for each key; returns true when the account has just been locked. */
export async function recordLoginFailure(
  db: Db,
  keys: { account: string; ip: string },
  now: Date,
  policy: ThrottlePolicy,
) {
  let locked = false;
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  for (const key of [keys.account, keys.ip]) {
    const failures = await countFailure(db, key, now, windowStart);
    if (key === keys.account && failures >= policy.lockAfter) {
      await lockKeyUntil(db, key, new Date(now.getTime() + policy.lockMinutes * 60_000));
      locked = true;
    }
  }
  return locked;
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `task` once every earlier task of the same key in this process has settled. */
function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  return run.finally(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
}

/**
 * Runs `task` as the only login attempt of one account in progress, across every API instance: the
 * check, the password check and the failure count happen one attempt at a time, so parallel guesses
 * (sent to one instance or spread over several) cannot all pass the check before a failure is
 * counted. On PostgreSQL `task` runs in a transaction holding `pg_advisory_xact_lock` on the account
 * key (released at commit, or by the server when the connection or the instance dies); attempts of
 * the same account in this process queue in memory first, so they wait without holding a pooled
 * connection each. The embedded database belongs to one process, where the in-memory queue is the
 * whole lock (a transaction there would hold its only connection through the password hash).
 * `task` must return its outcome rather than throw it: throwing rolls the failure count back.
 */
export function withAccountLock<T>(db: Db, key: string, task: (db: Db) => Promise<T>): Promise<T> {
  return serialised(key, () => (isEmbedded(db) ? task(db) : inAdvisoryLockTransaction(db, key, task)));
}

/** Clears an account's failures (successful login, or unlock by staff). */
export async function clearAccountThrottle(db: Db, email: string) {
  await deleteThrottle(db, accountKey(email));
}

/** Clears the failures of an account's second factor (a right code, or unlock by staff). */
export async function clearSecondFactorThrottle(db: Db, userId: number) {
  await deleteThrottle(db, secondFactorKey(userId));
}
