import { safeEqual } from '../../lib/crypto.ts';
import type { AuthUser } from './authentication.ts';

/** What a bearer token resolves to (`request.auth`). */
export interface CachedAuth {
  user: AuthUser;
  sessionId: number;
  tokenId: number;
}

/** Which cached sessions a write may have changed. */
export type SessionScope =
  { kind: 'all' } | { kind: 'user'; userId: number } | { kind: 'session'; sessionId: number };

interface Entry {
  tokenHash: string;
  auth: CachedAuth;
  /** The earlier of the token's and the session's end (ms since the epoch). */
  validUntil: number;
  /** When the entry must be read from the database again (ms since the epoch). */
  staleAt: number;
}

/**
 * Bearer tokens already resolved by this API instance (decision 021), keyed by token id. An entry
 * holds the SHA-256 of the token's secret (compared in constant time on every hit), the session
 * user, and the end of the token and of its session, so expiry is exact; it is read again from the
 * database after `ttlMs` whatever happens.
 *
 * Writes that may change a cached session call `invalidate` before their answer is sent (and, on
 * PostgreSQL, tell the other instances: see `session-invalidations.ts`). A lookup that was already
 * in flight when an invalidation happened does not store its result (`generation`), so an answer
 * read before a write committed can never be kept after the write was signalled.
 *
 * `enabled` is false while invalidations from other instances could be missed (the PostgreSQL
 * listener is not connected): every request then reads the database, as without a cache.
 */
export class SessionCache {
  private readonly entries = new Map<number, Entry>();
  private generation = 0;
  private on = true;

  constructor(private readonly options: { ttlMs: number; maxEntries: number }) {}

  get enabled(): boolean {
    return this.on;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Turns the cache off (forgetting everything) or back on. */
  setEnabled(on: boolean) {
    this.on = on;
    this.invalidate({ kind: 'all' });
  }

  /** The session of token `tokenId` when cached, unexpired and `tokenHash` matches; else undefined. */
  lookup(tokenId: number, tokenHash: string, nowMs: number): CachedAuth | undefined {
    if (!this.on) return undefined;
    const entry = this.entries.get(tokenId);
    if (!entry) return undefined;
    if (nowMs >= entry.validUntil || nowMs >= entry.staleAt || nowMs < entry.staleAt - this.options.ttlMs) {
      this.entries.delete(tokenId);
      return undefined;
    }
    return safeEqual(entry.tokenHash, tokenHash) ? entry.auth : undefined;
  }

  /** Taken before a database lookup; `store` keeps its result only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  store(mark: number, tokenHash: string, auth: CachedAuth, validUntil: Date, nowMs: number) {
    if (!this.on || mark !== this.generation) return;
    if (this.entries.size >= this.options.maxEntries) {
      // The oldest entry (insertion order) makes room.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(auth.tokenId);
    this.entries.set(auth.tokenId, {
      tokenHash,
      auth,
      validUntil: validUntil.getTime(),
      staleAt: nowMs + this.options.ttlMs,
    });
  }

  invalidate(scope: SessionScope) {
    this.generation += 1;
    if (scope.kind === 'all') {
      this.entries.clear();
      return;
    }
    for (const [tokenId, entry] of this.entries) {
      if (
        scope.kind === 'user' ? entry.auth.user.id === scope.userId : entry.auth.sessionId === scope.sessionId
      )
        this.entries.delete(tokenId);
    }
  }
}
