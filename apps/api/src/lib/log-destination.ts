import pino, { type DestinationStream } from 'pino';

/** Where the batched lines go: one call per turn of the event loop. */
export interface LogSink {
  write(data: string): unknown;
}

/**
 * A log destination that writes the lines of one turn of the event loop together (decision 025):
 * a line is kept in memory until the turn's I/O callbacks have run (`setImmediate`), then every line
 * of the turn goes to the sink in one write, in the order logged. Under load a turn answers several
 * requests, so their access-log lines cost one system call instead of one each, and none waits for
 * another thread (an asynchronous write hands every batch to libuv's thread pool and back).
 *
 * `flush()` writes what is pending at once; the process's `exit` does it for the stdout destination.
 */
export class TurnBatchedDestination implements DestinationStream {
  private lines: string[] = [];
  private readonly flushTurn = () => this.flush();

  constructor(private readonly sink: LogSink) {}

  write(line: string): void {
    if (this.lines.push(line) === 1) setImmediate(this.flushTurn);
  }

  /** Writes the pending lines now (pino's `logger.flush(cb)` calls it with a callback). */
  flush(callback?: (error?: Error) => void): void {
    const { lines } = this;
    if (lines.length > 0) {
      this.lines = [];
      this.sink.write(lines.length === 1 ? lines[0]! : lines.join(''));
    }
    callback?.();
  }
}

let stdout: TurnBatchedDestination | undefined;

/**
 * The API's stdout, shared by every app of the process: pino's synchronous SonicBoom (its default)
 * under a TurnBatchedDestination. SonicBoom retries a full pipe (EAGAIN) and finishes partial
 * writes; the lines still pending when the process exits are written by its `exit` handler.
 */
export function stdoutLogDestination(): TurnBatchedDestination {
  if (!stdout) {
    const destination = new TurnBatchedDestination(pino.destination({ dest: 1, sync: true }));
    process.on('exit', () => destination.flush());
    stdout = destination;
  }
  return stdout;
}
