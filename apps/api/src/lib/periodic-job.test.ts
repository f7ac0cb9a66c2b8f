import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { PeriodicJob } from './periodic-job.ts';

const logger = () => {
  const lines: string[] = [];
  const log = {
    info: (_: unknown, message: string) => lines.push(`info ${message}`),
    warn: (_: unknown, message: string) => lines.push(`warn ${message}`),
  } as unknown as FastifyBaseLogger;
  return { log, lines };
};

describe('a periodic job of the API process', () => {
  it('runs once at a time, reports, logs a failure and goes on; stop waits for the run in progress', async () => {
    const { log, lines } = logger();
    let runs = 0;
    let release: () => void = () => {};
    const job = new PeriodicJob<number>({
      intervalMs: 60_000,
      log,
      run: async () => {
        runs += 1;
        if (runs === 2) throw new Error('broken');
        await new Promise<void>((resolve) => (release = resolve));
        return runs;
      },
      report: (n, l) => l.info({ n }, 'ran'),
      failure: 'job failed',
    });
    const first = job.runOnce();
    expect(job.runOnce()).toBe(first); // not doubled while running
    const stopping = job.stop();
    release();
    await stopping;
    expect(lines).toEqual(['info ran']);
    await job.runOnce();
    expect(lines).toEqual(['info ran', 'warn job failed']);
    expect(runs).toBe(2);
  });

  it('runs at start when asked, and not at all with no interval', async () => {
    const { log } = logger();
    let runs = 0;
    const make = (intervalMs: number, runAtStart: boolean) =>
      new PeriodicJob<void>({
        intervalMs,
        runAtStart,
        log,
        run: async () => void (runs += 1),
        report: () => {},
        failure: 'x',
      });
    const started = make(60_000, true);
    started.start();
    await started.stop();
    expect(runs).toBe(1);
    const off = make(0, true);
    off.start();
    await off.stop();
    expect(runs).toBe(1);
  });
});
