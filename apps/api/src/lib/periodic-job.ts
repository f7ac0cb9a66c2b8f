import type { FastifyBaseLogger } from 'fastify';

/**
 * A background task of the API process run every `intervalMs` (and at start when `runAtStart`), one
 * run at a time: a run still going when the next is due is not doubled. A failure is logged as a
 * warning and the next run happens as planned; `stop()` waits for the run in progress. `intervalMs`
 * of 0 or less turns the timer off (`runOnce()` still works, e.g. from a command).
 */
export class PeriodicJob<T> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly options: {
      intervalMs: number;
      runAtStart?: boolean;
      log: FastifyBaseLogger;
      /** The work; its result goes to `report`. */
      run: () => Promise<T>;
      /** Logs what a run did (nothing to say: nothing logged). */
      report: (result: T, log: FastifyBaseLogger) => void;
      /** The warning logged when a run fails. */
      failure: string;
    },
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    if (this.options.runAtStart) void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  runOnce(): Promise<void> {
    this.running ??= this.options
      .run()
      .then((result) => this.options.report(result, this.options.log))
      .catch((error: unknown) => this.options.log.warn({ err: error }, this.options.failure))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
