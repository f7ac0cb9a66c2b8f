// The suppression off the API's event loop (decision 033), in one worker thread kept between calls
// (issue 40, decision 057). The worker runs the suppression's modules bundled to plain JavaScript
// once per process (esbuild, already tsx's): no TypeScript loader in the worker, and no loader thread
// of its own (tsx's hooks run in one), which took about 35 MiB of the first call's growth. Calls are
// queued, so two surveys computed at once take one worker's memory, not two; an idle worker ends
// after a while and the next call starts another.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  OFF_THREAD_ABOVE,
  suppressionSize,
  suppressTallies,
  withViews,
  type ItemDef,
  type ResultTallies,
  type SuppressedResults,
  type SuppressOptions,
  type ViewResult,
} from './results-suppression.ts';

/** An idle worker ends after this long (its heap is given back); the next call starts another. */
const IDLE_MS = 60_000;

/**
 * The worker's young generation (V8's default is three times larger): the audit allocates many
 * short-lived arrays, and a smaller nursery is collected sooner. Synthetic 99 groups × 27 items at 10×:
 * the first call's growth +112 → +93 MiB, about 10% more CPU (decision 057).
 */
const YOUNG_GENERATION_MB = 16;

let code: Promise<string> | undefined;
let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** The worker's entry and what it imports, as one CommonJS script (built once per process). */
function workerCode(): Promise<string> {
  code ??= import('esbuild')
    .then((esbuild) =>
      esbuild.build({
        entryPoints: [fileURLToPath(new URL('./results-suppression-worker.ts', import.meta.url))],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        write: false,
        logLevel: 'silent',
      }),
    )
    .then((built) => built.outputFiles[0]!.text)
    .catch((error: unknown) => {
      code = undefined;
      throw error;
    });
  return code;
}

async function started(): Promise<Worker> {
  if (worker) return worker;
  // No execArgv: the API's own (tsx's loader) would start a loader thread in the worker too.
  const started = new Worker(await workerCode(), {
    eval: true,
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  started.on('exit', () => {
    if (worker === started) worker = undefined;
  });
  worker = started;
  return started;
}

/** One suppression in the worker: the views, as suppressTallies gives them. */
function inWorker(data: unknown): Promise<[string, ViewResult][]> {
  const job = queue.then(async () => {
    clearTimeout(idle);
    const w = await started();
    return new Promise<[string, ViewResult][]>((resolve, reject) => {
      const done = () => {
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        w.unref();
        idle = setTimeout(() => void w.terminate(), IDLE_MS).unref();
      };
      const onMessage = (views: [string, ViewResult][]) => {
        done();
        resolve(views);
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const onExit = (exit: number) => {
        done();
        reject(new Error(`results suppression worker exited with ${exit}`));
      };
      w.on('message', onMessage);
      w.once('error', onError);
      w.once('exit', onExit);
      w.ref();
      w.postMessage(data);
    });
  });
  queue = job.catch(() => undefined);
  return job;
}

/**
 * suppressTallies, in the worker thread when the tallies are large (decision 033), so that the API
 * keeps answering other requests meanwhile; the same function and input, so the same results.
 */
export async function suppressTalliesOffThread(
  items: ItemDef[],
  tallies: ResultTallies,
  minGroup: number,
  previous: SuppressOptions['previous'] = [],
): Promise<SuppressedResults> {
  if (suppressionSize(items, tallies, previous) <= OFF_THREAD_ABOVE)
    return suppressTallies(items, tallies, minGroup, { previous });
  const views = await inWorker({
    items,
    groups: tallies.groups,
    pairs: [...tallies.pairs],
    minGroup,
    previous,
  });
  return withViews(new Map(views));
}
