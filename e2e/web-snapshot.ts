import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const CACHE = 'e2e/.cache';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies apps/web/dist and the static server into e2e/.cache/web-<pid> (inside the repository, so
 * the server still resolves its packages from the root node_modules) and returns that directory.
 * Copies left by runs that no longer exist are removed.
 */
export function snapshotWebBuild(repoRoot: string): string {
  const dist = join(repoRoot, 'apps/web/dist');
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build -w apps/web` before the e2e suite.');
  }
  const cache = join(repoRoot, CACHE);
  mkdirSync(cache, { recursive: true });
  for (const name of readdirSync(cache)) {
    const pid = Number(/^web-(\d+)$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid))
      rmSync(join(cache, name), { recursive: true, force: true });
  }
  const target = join(cache, `web-${process.pid}`);
  rmSync(target, { recursive: true, force: true });
  cpSync(dist, join(target, 'dist'), { recursive: true });
  cpSync(join(repoRoot, 'apps/web/server/serve.mjs'), join(target, 'server/serve.mjs'));
  return target;
}

export function removeWebSnapshot(dir: string | undefined): void {
  if (dir && dir.includes(`${CACHE}/web-`)) rmSync(dir, { recursive: true, force: true });
}
