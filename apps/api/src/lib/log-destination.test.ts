import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TurnBatchedDestination } from './log-destination.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function recording() {
  const writes: string[] = [];
  return { writes, destination: new TurnBatchedDestination({ write: (data) => writes.push(data) }) };
}

describe('TurnBatchedDestination', () => {
  it('writes the lines of one turn of the event loop together, in order, when the turn is done', async () => {
    const { writes, destination } = recording();
    destination.write('a\n');
    destination.write('b\n');
    destination.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);
    destination.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('writes what is pending at once on flush, and nothing when nothing is', async () => {
    const { writes, destination } = recording();
    destination.flush();
    destination.write('a\n');
    let called = false;
    destination.flush(() => (called = true));
    expect(writes).toEqual(['a\n']);
    expect(called).toBe(true);
    await nextTurn();
    expect(writes).toEqual(['a\n']);
  });

  it('loses no line when the process exits in the turn that logged it', () => {
    const module = fileURLToPath(new URL('./log-destination.ts', import.meta.url));
    const script = [
      `const { stdoutLogDestination } = await import(${JSON.stringify(module)});`,
      `const pino = (await import('pino')).default;`,
      // As Fastify builds it (`pino(options, stream)`): a lone argument without `writable` would be
      // read as options, and pino would log through its own stream instead.
      `const log = pino({}, stdoutLogDestination());`,
      `for (let i = 0; i < 3; i++) log.info({ i }, 'line');`,
      `process.exit(0);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.status).toBe(0);
    const lines = child.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { i: number; msg: string });
    expect(lines.map((line) => [line.i, line.msg])).toEqual([
      [0, 'line'],
      [1, 'line'],
      [2, 'line'],
    ]);
  });
});
