// Builds the web app once per set of inputs: the build in apps/web/dist carries a digest of what it was
// built from (sources, configs, the lockfile), and a build from the same inputs is skipped. `npm start`
// and `npm test` in one CI run then build once (issue 41); any change to an input builds again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const INPUTS = ['apps/web', 'packages/shared', 'package-lock.json', 'package.json', 'tsconfig.base.json'];
const SKIP = new Set(['node_modules', 'dist', '.cache']);
const STAMP = join(root, 'apps/web/dist/.build-inputs');

function* files(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) if (!SKIP.has(entry)) yield* files(join(path, entry));
}

/** A digest of every input file's path and bytes, and of the build's own environment. */
export function webBuildInputs() {
  const hash = createHash('sha256');
  hash.update(`PORTALE_BUILD_ID=${process.env.PORTALE_BUILD_ID ?? ''}\0`);
  for (const input of INPUTS) {
    for (const file of files(join(root, input)))
      hash
        .update(`${relative(root, file)}\0`)
        .update(readFileSync(file))
        .update('\0');
  }
  return hash.digest('hex');
}

/** Builds the web app unless apps/web/dist was built from these inputs; returns the exit status. */
export function buildWebOnce() {
  const inputs = webBuildInputs();
  if (
    existsSync(STAMP) &&
    existsSync(join(root, 'apps/web/dist/build.json')) &&
    readFileSync(STAMP, 'utf8') === inputs
  ) {
    console.log('Web app già compilata da questi sorgenti (apps/web/dist): compilazione saltata.');
    return 0;
  }
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status === 0) writeFileSync(STAMP, inputs);
  return build.status ?? 1;
}
