// Shared helpers of the benchmarks: free ports, child servers, autocannon runs, latency summaries.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a child process and waits until `readyUrl` answers 2xx (at most `timeoutMs`). */
export async function startServer(command, args, { env, readyUrl, timeoutMs = 300_000, logFile }) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', logFile ?? 'ignore', logFile ?? 'ignore'],
    detached: true,
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(readyUrl);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${readyUrl} did not answer in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          resolve();
        }
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            /* gone */
          }
        }, 5000).unref();
      }),
  };
}

/** Percentiles (ms) of a list of latencies. */
export function summarise(latencies, seconds, errors) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return {
    rps: sorted.length / seconds,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    errors,
    total: sorted.length,
  };
}

/** autocannon against one URL; every response time is recorded, so p95 is exact. */
export function load(url, { connections = 20, duration = 8, headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let errors = 0;
    const instance = autocannon({ url, connections, duration, headers }, (error, result) => {
      if (error) return reject(error);
      resolve(summarise(latencies, duration, errors + result.errors + result.timeouts));
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (statusCode >= 400) errors += 1;
    });
  });
}

/** Runs `work` from `concurrency` loops for `seconds`; per-call latencies → percentiles (ms). */
export async function closedLoop(work, { concurrency = 20, seconds = 8 } = {}) {
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  let errors = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        try {
          await work();
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - start);
      }
    }),
  );
  return summarise(latencies, seconds, errors);
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
