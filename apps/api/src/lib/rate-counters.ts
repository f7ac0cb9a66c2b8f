import { createHmac } from 'node:crypto';
import type { Db } from '../db/client.ts';
import type { Clock } from './clock.ts';
import { addHits, deleteEndedWindows } from './rate-limit-hits.repository.ts';

/** Hits of one key in its current fixed window, and the milliseconds until that window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

/**
 * Counts requests per key in fixed windows of `windowMs` aligned on the epoch (every instance agrees
 * on where a window starts and ends).
 */
export interface RateCounter {
  /** Adds `weight` hits (default 1; 0 reads the count without adding) and returns the window's total. */
  hit(key: string, windowMs: number, weight?: number): Promise<WindowCount>;
  /** Sends what is still only counted here, removes expired rows; called on close. */
  close(): Promise<void>;
}

const windowEndOf = (nowMs: number, windowMs: number) => (Math.floor(nowMs / windowMs) + 1) * windowMs;

/** Counters of this process only: the embedded database (one process) and tests. */
export class MemoryCounter implements RateCounter {
  private readonly windows = new Map<string, { windowEnd: number; count: number }>();
  private nextSweep = 0;

  constructor(private readonly clock: Clock) {}

  async hit(key: string, windowMs: number, weight = 1): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    const windowEnd = windowEndOf(now, windowMs);
    const id = `${windowMs}|${key}`;
    let entry = this.windows.get(id);
    if (!entry || entry.windowEnd !== windowEnd) {
      entry = { windowEnd, count: 0 };
      this.windows.set(id, entry);
    }
    entry.count += weight;
    if (now >= this.nextSweep) this.sweep(now);
    return { count: entry.count, resetInMs: windowEnd - now };
  }

  /** Forgets ended windows (at most once a minute), so one-off addresses do not pile up. */
  private sweep(now: number) {
    this.nextSweep = now + 60_000;
    for (const [id, entry] of this.windows) if (entry.windowEnd <= now) this.windows.delete(id);
  }

  async close() {
    this.windows.clear();
  }
}

/** How long ended windows are kept before they are deleted (by whichever instance gets there first). */
const CLEANUP_EVERY_MS = 5 * 60_000;

/**
 * Counters shared by every API instance through PostgreSQL (`rate_limit_hits`). Keys are stored as a
 * keyed hash (HMAC with APP_SECRET), so the table never holds an IP address or a user id.
 *
 * - `exact` (the tight limits of login, registration, codes, contact, and the global ceilings): one
 *   upsert per request; the count is the count of every instance at that moment.
 * - `batched` (the generous per-IP and per-user ceiling of every request): hits are counted here and
 *   added to the shared row once per `flushMs`, which answers with the total of every instance; a
 *   request is judged on that total plus the hits counted here since. Every instance may go past a
 *   limit by what it receives in one `flushMs` for that key, and a request costs no database round trip.
 */
export class PostgresCounter implements RateCounter {
  /** Batched mode: per `windowMs|key`, its stored (hashed) key and the hits known and not yet sent. */
  private readonly pending = new Map<
    string,
    { stored: string; windowEnd: number; known: number; unsent: number }
  >();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private nextCleanup: number;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly secret: string,
    private readonly mode: { kind: 'exact' } | { kind: 'batched'; flushMs: number },
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.nextCleanup = clock.now().getTime() + CLEANUP_EVERY_MS * (0.5 + Math.random());
  }

  private storedKey(key: string, windowMs: number) {
    return createHmac('sha256', this.secret).update(`${windowMs}|${key}`).digest('base64url').slice(0, 27);
  }

  async hit(key: string, windowMs: number, weight = 1): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    const windowEnd = windowEndOf(now, windowMs);
    if (this.mode.kind === 'exact') {
      // A weight of 0 runs the same statement and adds nothing: reading costs what counting costs.
      const [row] = await addHits(this.db, [{ key: this.storedKey(key, windowMs), windowEnd, hits: weight }]);
      this.maybeCleanup(now);
      const end = new Date(row!.window_end).getTime();
      return { count: row!.hits, resetInMs: Math.max(0, end - now) };
    }
    // Batched: the keyed hash is computed once per key and window, not on every request.
    const id = `${windowMs}|${key}`;
    let entry = this.pending.get(id);
    if (!entry || entry.windowEnd < windowEnd) {
      entry = { stored: entry?.stored ?? this.storedKey(key, windowMs), windowEnd, known: 0, unsent: 0 };
      this.pending.set(id, entry);
    }
    entry.unsent += weight;
    this.timer ??= setTimeout(() => void this.flush(), this.mode.flushMs).unref();
    return { count: entry.known + entry.unsent, resetInMs: Math.max(0, entry.windowEnd - now) };
  }

  /** Adds the hits counted here since the last flush to the shared rows and reads the totals back. */
  flush(): Promise<void> {
    this.timer = undefined;
    this.flushing = this.flushing.then(async () => {
      const now = this.clock.now().getTime();
      const batch: { key: string; windowEnd: number; hits: number }[] = [];
      const byStored = new Map<
        string,
        { stored: string; windowEnd: number; known: number; unsent: number }
      >();
      for (const [id, entry] of this.pending) {
        if (entry.unsent > 0) {
          batch.push({ key: entry.stored, windowEnd: entry.windowEnd, hits: entry.unsent });
          byStored.set(entry.stored, entry);
          entry.unsent = 0;
        } else if (entry.windowEnd <= now) {
          this.pending.delete(id);
        }
      }
      if (batch.length === 0) return;
      try {
        for (const row of await addHits(this.db, batch)) {
          const entry = byStored.get(row.key);
          if (entry && new Date(row.window_end).getTime() === entry.windowEnd) entry.known = row.hits;
        }
        this.maybeCleanup(now);
      } catch (error) {
        // The database is unreachable: keep counting here and send the hits with the next flush.
        for (const b of batch) {
          const entry = byStored.get(b.key);
          if (entry?.windowEnd === b.windowEnd) entry.unsent += b.hits;
        }
        if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), 5_000).unref();
        this.onError(error);
      }
    });
    return this.flushing;
  }

  private maybeCleanup(now: number) {
    if (now < this.nextCleanup) return;
    this.nextCleanup = now + CLEANUP_EVERY_MS;
    // Windows that ended more than a minute ago (a little slack for instances whose clocks differ).
    deleteEndedWindows(this.db, new Date(now - 60_000)).catch(this.onError);
  }

  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.mode.kind === 'batched') await this.flush();
  }
}
