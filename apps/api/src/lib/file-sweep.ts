import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { FileStore } from './file-store.ts';
import { referenced } from './file-sweep.repository.ts';
import { PeriodicJob } from './periodic-job.ts';

const BATCH = 500;

export interface SweepOptions {
  /** A file written less than this long ago is kept whatever the rows say: its upload may not be committed yet. */
  graceMs: number;
  /** Wall-clock now (file times are the store's, not the application's clock). */
  now?: Date;
}

export interface SweepResult {
  /** Files the store holds. */
  scanned: number;
  /** Old enough and named by no row: removed. */
  removed: number;
  /** Younger than the grace period (not looked at). */
  recent: number;
}

/**
 * Removes the stored files that no row names any more: the files of rows deleted by a cascade (an
 * institute deleted with its actions, a user with their signatures) and of anything a crash left
 * between the store and the commit. A file younger than `graceMs` is never touched, so an upload
 * whose row is not yet committed survives. Works on any store (disk or S3) through `list`; keys are
 * random and never reused, so a file found unnamed stays unnamed. Safe to run on several instances
 * at once (a removal is idempotent).
 */
export async function sweepOrphanFiles(
  db: Db,
  files: FileStore,
  options: SweepOptions,
): Promise<SweepResult> {
  const cutoff = (options.now ?? new Date()).getTime() - options.graceMs;
  const result: SweepResult = { scanned: 0, removed: 0, recent: 0 };
  let batch: string[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const named = await referenced(db, batch);
    for (const key of batch) {
      if (named.has(key)) continue;
      await files.remove(key);
      result.removed += 1;
    }
    batch = [];
  };
  for await (const file of files.list()) {
    result.scanned += 1;
    if (file.modifiedAt.getTime() > cutoff) {
      result.recent += 1;
      continue;
    }
    batch.push(file.key);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return result;
}

/** Runs the sweep every `intervalMs` (not at start: a start stays fast), one run at a time; failures are logged. */
export class FileSweeper extends PeriodicJob<SweepResult> {
  constructor(
    db: Db,
    files: FileStore,
    options: { intervalMs: number; graceMs: number; log: FastifyBaseLogger },
  ) {
    super({
      intervalMs: options.intervalMs,
      log: options.log,
      run: () => sweepOrphanFiles(db, files, { graceMs: options.graceMs }),
      report: (result, log) => {
        if (result.removed > 0) log.info(result, 'orphan stored files removed');
      },
      failure: 'sweep of orphan stored files failed',
    });
  }
}
