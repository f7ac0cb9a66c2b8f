import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SessionCache, SessionScope } from './session-cache.ts';

/** The PostgreSQL channel on which instances tell each other which cached sessions to drop. */
export const SESSION_CHANNEL = 'portale_session_cache';

/** How long the listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 1000;
/** How often an instance checks that its own notifications come back through its listener. */
export const HEARTBEAT_MS = 2000;

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
 * database. A connection of its own LISTENs. The cache is on only while notifications are known to
 * arrive: after the LISTEN, the instance sends itself a probe through the pool and turns the cache on
 * when the probe comes back; then it sends one every `heartbeatMs`, and if one has not come back by
 * the next, it treats the listener as lost (a half-open connection, or a DATABASE_URL that points at
 * a transaction-pooling proxy, where LISTEN silently receives nothing). A lost listener turns the
 * cache off at once (every request reads the database) and reconnects every second; the cache comes
 * back empty. A publisher skips its own notifications (it has already applied them).
 */
export class PostgresInvalidations implements SessionInvalidations {
  private readonly instanceId = randomUUID();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The probe sent and not yet received back, if any. */
  private pendingProbe: string | undefined;
  private probes = 0;
  private closed = false;
  /** One warning per outage, not one per reconnection attempt. */
  private warned = false;

  constructor(
    private readonly cache: SessionCache,
    private readonly pool: pg.Pool,
    private readonly log: Log,
    private readonly heartbeatMs = HEARTBEAT_MS,
  ) {
    cache.setEnabled(false);
  }

  /** Connects and listens; the cache is turned on when the first probe comes back. */
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
      if (message.channel !== SESSION_CHANNEL || lost) return;
      const payload = message.payload ?? '';
      const space = payload.indexOf(' ');
      const from = space >= 0 ? payload.slice(0, space) : '';
      const body = space >= 0 ? payload.slice(space + 1) : payload;
      if (from !== this.instanceId) {
        this.cache.invalidate(decodeScope(body));
      } else if (body === this.pendingProbe) {
        this.pendingProbe = undefined;
        if (!this.cache.enabled) this.listening();
      }
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
    this.pendingProbe = undefined;
    const beat = () => {
      if (this.client !== client) return;
      if (this.pendingProbe) {
        onLost(new Error(`no notification came back within ${this.heartbeatMs} ms`));
        return;
      }
      this.probes += 1;
      this.pendingProbe = `probe:${this.probes}`;
      this.pool
        .query('select pg_notify($1, $2)', [SESSION_CHANNEL, `${this.instanceId} ${this.pendingProbe}`])
        .catch(onLost);
      this.heartbeat = setTimeout(beat, this.heartbeatMs);
      this.heartbeat.unref();
    };
    beat();
  }

  private listening() {
    this.cache.setEnabled(true);
    if (this.warned)
      this.log.info({}, 'session cache on again: invalidations from the other instances arrive');
    this.warned = false;
  }

  private lost(client: pg.Client, error?: Error) {
    this.cache.setEnabled(false);
    if (this.client === client) {
      this.client = undefined;
      if (this.heartbeat) clearTimeout(this.heartbeat);
    }
    client.end().catch(() => {});
    if (this.closed) return;
    if (!this.warned) {
      this.log.warn(
        { err: error },
        'session cache off: invalidations from the other instances may not arrive; listening again every second',
      );
    }
    this.warned = true;
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
    if (this.heartbeat) clearTimeout(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.cache.setEnabled(false);
    await client?.end().catch(() => {});
  }
}
