import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { claimDueMessages, markAttemptFailed, markSent, type OutboxRow } from './outbox.repository.ts';
import type { Transport } from './message-transports.ts';

export interface OutboxWorkerOptions {
  db: Db;
  clock: Clock;
  mail: Transport;
  sms: Transport;
  log: FastifyBaseLogger;
  pollMs: number;
  maxAttempts: number;
  batchSize?: number;
}

/** A claimed message is left to its worker this long; after a crash it is retried once this passes. */
const LEASE_MS = 2 * 60_000;

/** Wait before the next attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/** Delivers outbox messages; failures are retried with backoff and never deleted. */
export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(private readonly options: OutboxWorkerOptions) {}

  /** Sends every due message once; returns how many were delivered. */
  async runOnce(): Promise<number> {
    const { db, clock, batchSize = 20 } = this.options;
    const now = clock.now();
    const claimed = await claimDueMessages(db, now, new Date(now.getTime() + LEASE_MS), batchSize);
    let delivered = 0;
    for (const row of claimed) {
      if (await this.deliver(row)) delivered += 1;
    }
    return delivered;
  }

  private async deliver(row: OutboxRow): Promise<boolean> {
    const { db, clock, log, maxAttempts } = this.options;
    const transport = row.channel === 'email' ? this.options.mail : this.options.sms;
    try {
      const ref = await transport.send(row, clock.now());
      await markSent(db, row.id, clock.now(), ref);
      if (transport.kind === 'file')
        log.info({ outboxId: row.id, channel: row.channel, path: ref }, 'message written to file');
      else log.info({ outboxId: row.id, channel: row.channel }, 'message delivered');
      return true;
    } catch (error) {
      const attempts = row.attempts + 1;
      const retryAt = attempts >= maxAttempts ? null : new Date(clock.now().getTime() + backoffMs(attempts));
      const message = error instanceof Error ? error.message : String(error);
      await markAttemptFailed(db, row, { error: message, retryAt });
      log.warn(
        { outboxId: row.id, channel: row.channel, attempts, willRetry: retryAt !== null },
        'message delivery failed',
      );
      return false;
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = async () => {
      this.running = this.runOnce().catch((error: unknown) =>
        this.options.log.error({ err: error }, 'outbox run failed'),
      );
      await this.running;
      if (!this.stopped) this.timer = setTimeout(() => void tick(), this.options.pollMs);
    };
    void tick();
  }

  /** Stops polling and waits for the current run to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    this.options.mail.close();
    this.options.sms.close();
  }
}
