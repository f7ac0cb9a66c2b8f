import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SessionCache, SessionScope } from './session-cache.ts';

/** The PostgreSQL channel on which instances tell each other which cached sessions to drop. */
export const SESSION_CHANNEL = 'portale_session_cache';

/** How long the listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 1000;

export interface SessionInvalidations {
  /**
   * Drops the sessions of `scope` from this instance's cache at once and, on PostgreSQL, tells every
   * other instance; resolves when the notification is committed (every listener then has it queued).
   */
  publish(scope: SessionScope): Promise<void>;
  close(): Promise<void>;
}

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** `a` (every session), `u:<user id>`, `s:<session id>`. */
export function encodeScope(scope: SessionScope): string {
  if (scope.kind === 'user') return `u:${scope.userId}`;
  if (scope.kind === 'session') return `s:${scope.sessionId}`;
  return 'a';
}

/** The scope of a payload; anything else (an operator's bare `NOTIFY portale_session_cache`) is every session. */
export function decodeScope(payload: string): SessionScope {
  const match = /^([us]):(\d{1,15})$/.exec(payload);
  if (!match) return { kind: 'all' };
  const id = Number(match[2]);
  return match[1] === 'u' ? { kind: 'user', userId: id } : { kind: 'session', sessionId: id };
}

/** The embedded database belongs to one process: invalidating the cache is all there is to do. */
export function localInvalidations(cache: SessionCache): SessionInvalidations {
  return {
    async publish(scope) {
      cache.invalidate(scope);
    },
    async close() {},
  };
}

/**
 * Invalidations across API instances through PostgreSQL LISTEN/NOTIFY on the application's own
 * database. A connection of its own LISTENs; while it is not listening (starting, or lost until it
 * reconnects) the cache is off, because a notification could be missed; when it listens again, the
 * cache starts empty. A publisher skips its own notifications (it has already applied them).
 */
export class PostgresInvalidations implements SessionInvalidations {
  private readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** One warning per outage, not one per reconnection attempt. */
  private warned = false;

  constructor(
    private readonly cache: SessionCache,
    private readonly pool: pg.Pool,
    private readonly log: Log,
  ) {
    cache.setEnabled(false);
  }

  /** Connects and listens; the cache is turned on once the LISTEN has succeeded. */
  async start(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      this.lost(client, error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== SESSION_CHANNEL) return;
      const payload = message.payload ?? '';
      const space = payload.indexOf(' ');
      const from = space >= 0 ? payload.slice(0, space) : '';
      if (from === this.instanceId) return;
      this.cache.invalidate(decodeScope(space >= 0 ? payload.slice(space + 1) : payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (this.closed || lost) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.cache.setEnabled(true);
    if (this.warned) this.log.info({}, 'session cache on again: the invalidation listener is connected');
    this.warned = false;
  }

  private lost(client: pg.Client, error?: Error) {
    this.cache.setEnabled(false);
    if (this.client === client) this.client = undefined;
    client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn(
      { err: error },
      'session cache off: the invalidation listener lost its database connection; reconnecting',
    );
    this.retry ??= setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.start();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async publish(scope: SessionScope): Promise<void> {
    this.cache.invalidate(scope);
    try {
      await this.pool.query('select pg_notify($1, $2)', [
        SESSION_CHANNEL,
        `${this.instanceId} ${encodeScope(scope)}`,
      ]);
    } catch (error) {
      // The write this follows has committed; the other instances' entries end with their time to live.
      this.log.error(
        { err: error, scope: encodeScope(scope) },
        'session cache: the other instances could not be told of a change',
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.cache.setEnabled(false);
    await client?.end().catch(() => {});
  }
}
