import type { FastifyInstance } from 'fastify';
import { isEmbedded, type Db } from '../db/client.ts';
import type { DbOrTx } from '../db/transaction.ts';
import { withStatementTimeout } from './list.ts';
import { HttpError } from './http-error.ts';

/**
 * At most `size` tasks at once in this process; up to `queue` more wait their turn for at most
 * `maxWaitMs`. Heavy work (exports, costly searches) passes through one, so that it never takes
 * every connection (the embedded database has only one) and health and login are still served.
 */
export class Gate {
  private running = 0;
  private readonly waiting: {
    resolve: (release: (() => void) | undefined) => void;
    timer: NodeJS.Timeout;
  }[] = [];

  constructor(
    readonly size: number,
    readonly queue = 0,
    readonly maxWaitMs = 0,
  ) {}

  get active(): number {
    return this.running;
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        // Handed over on the next turn of the event loop: requests that arrived meanwhile (health,
        // login) are read and queue their statements before the next heavy one (the embedded
        // database runs its queue back to back, without letting the event loop read sockets).
        setImmediate(() => next.resolve(this.releaser()));
      } else {
        this.running -= 1;
      }
    };
  }

  /** A release function when a place is free now; undefined when full. */
  tryEnter(): (() => void) | undefined {
    if (this.running >= this.size) return undefined;
    this.running += 1;
    return this.releaser();
  }

  /** A place now, or after a short wait in the queue; undefined when the queue is full or the wait too long. */
  enter(): Promise<(() => void) | undefined> {
    const now = this.tryEnter();
    if (now || this.waiting.length >= this.queue) return Promise.resolve(now);
    return new Promise((resolve) => {
      const entry = {
        resolve,
        timer: setTimeout(() => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          resolve(undefined);
        }, this.maxWaitMs),
      };
      this.waiting.push(entry);
    });
  }
}

export interface Gates {
  /** Exports (CSV/XLSX) at once: EXPORT_CONCURRENCY; one more is refused (429). */
  exports: Gate;
  /** Costly list searches at once: HEAVY_LIST_CONCURRENCY (1 on the embedded database); a few more wait briefly, then 503. */
  lists: Gate;
}

export function createGates(
  env: { EXPORT_CONCURRENCY: number; HEAVY_LIST_CONCURRENCY?: number | undefined },
  embedded: boolean,
): Gates {
  return {
    exports: new Gate(env.EXPORT_CONCURRENCY),
    lists: new Gate(env.HEAVY_LIST_CONCURRENCY ?? (embedded ? 1 : 4), 16, 3000),
  };
}

export const EXPORT_BUSY_MESSAGE = 'Sono già in corso troppe esportazioni: riprova tra qualche secondo.';
export const LISTS_BUSY_MESSAGE =
  'Il portale sta elaborando molte ricerche in questo momento: riprova tra qualche secondo.';
export const LIST_TIMEOUT_MESSAGE =
  'La ricerca richiede troppo tempo: aggiungi parole o filtri per restringerla.';

/** The 429 of an export beyond EXPORT_CONCURRENCY. */
export const exportBusy = () =>
  new HttpError(429, 'export_busy', EXPORT_BUSY_MESSAGE, { 'retry-after': '10' });

/**
 * Runs a costly list query (a search of the registry or of the users) through the list gate: when
 * the gate and its short queue are full the answer is an Italian 503 with Retry-After, not a wait
 * behind everyone else. On PostgreSQL a search runs with `statement_timeout` =
 * LIST_STATEMENT_TIMEOUT_MS (a 503 when cancelled), in a transaction of its own.
 */
export async function heavyList<T>(
  app: FastifyInstance,
  options: { search: boolean },
  task: (db: DbOrTx) => Promise<T>,
): Promise<T> {
  const release = await app.gates.lists.enter();
  if (!release) throw new HttpError(503, 'lists_busy', LISTS_BUSY_MESSAGE, { 'retry-after': '2' });
  try {
    // Only a search pays for the timeout's transaction (a page without words is cheap and counted once).
    if (isEmbedded(app.db as Db) || !options.search) return await task(app.db);
    return await withStatementTimeout(app.db, app.env.LIST_STATEMENT_TIMEOUT_MS, task);
  } catch (error) {
    if (queryCanceled(error))
      throw new HttpError(503, 'list_timeout', LIST_TIMEOUT_MESSAGE, { 'retry-after': '5' });
    throw error;
  } finally {
    release();
  }
}

function queryCanceled(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth += 1
  ) {
    if (e.code === '57014') return true;
  }
  return false;
}
