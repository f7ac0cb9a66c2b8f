import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Work started after a response, per database (the same object in every plugin context of an app). */
const pending = new WeakMap<object, Set<Promise<void>>>();

/**
 * Runs `work` once the response has been handed to the network, so its duration never shows in the
 * response time: an answer that must not tell whether an account exists (forgot password) is sent
 * first, then the account is looked up and the e-mail queued. Errors are logged, never sent.
 * `settleAfterResponse` waits for such work (app shutdown, tests).
 */
export function afterResponse(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  label: string,
  work: () => Promise<void>,
): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    let set = pending.get(app.db);
    if (!set) pending.set(app.db, (set = new Set()));
    const running: Promise<void> = work()
      .catch((error: unknown) => request.log.error({ err: error }, `${label} failed after the response`))
      .finally(() => set.delete(running));
    set.add(running);
  };
  // 'finish': the whole answer is written; 'close' also covers a client that went away first. The
  // next turn of the event loop: not even the first synchronous step runs before the answer is out.
  const later = () => setImmediate(start);
  reply.raw.once('finish', later);
  reply.raw.once('close', later);
}

/** Resolves once no work started by `afterResponse` is running for this app's database. */
export async function settleAfterResponse(app: Pick<FastifyInstance, 'db'>): Promise<void> {
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const set = pending.get(app.db);
    if (!set || set.size === 0) return;
    await Promise.allSettled([...set]);
  }
}
