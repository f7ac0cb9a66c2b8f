import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const apiRoot = fileURLToPath(new URL('..', import.meta.url));

/** Starts `src/server.ts` as `npm start` does and waits for it to exit. */
function startServer(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiRoot,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        SEED_REGISTRY: 'none',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit; stdout: ${stdout} stderr: ${stderr}`));
    }, 25_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('start with a database that cannot be reached', () => {
  it('prints one clear line naming DATABASE_URL and the host, no stack trace, and exits 1', async () => {
    const { code, stdout, stderr } = await startServer({
      DATABASE_URL: 'postgres://nobody:segreta@127.0.0.1:1/x',
    });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      'DATABASE_URL: impossibile connettersi a PostgreSQL su 127.0.0.1:1 (connessione rifiutata: il server non è avviato o la porta è sbagliata).',
    );
    expect(stderr + stdout).not.toMatch(/\n\s+at /);
    expect(stderr + stdout).not.toContain('segreta');
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'names a database that does not exist on a reachable server',
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = '/portale_missing_database';
      const { code, stderr } = await startServer({ DATABASE_URL: url.toString() });
      expect(code).toBe(1);
      expect(stderr.trim()).toMatch(
        /^DATABASE_URL: il database "portale_missing_database" non esiste su [^\n]+$/,
      );
    },
  );
});
