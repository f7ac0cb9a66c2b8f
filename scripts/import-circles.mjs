#!/usr/bin/env node
// Folder-level import circles (issue 36): groups each source file of a tree into its "room"
// (a top folder such as db/ or lib/, or modules/<name>), draws an arrow between rooms for every
// relative import, and prints the strongly connected groups of more than one room. Test files are left out.
// Usage: node scripts/import-circles.mjs [apps/api/src] [--verbose]
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const root = resolve(args.find((a) => !a.startsWith('--')) ?? 'apps/api/src');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === 'node_modules' || name === 'migrations' ? [] : walk(path);
    return /\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name) ? [path] : [];
  });
}

function room(file) {
  const parts = relative(root, file).split('/');
  if (parts.length === 1) return parts[0];
  return parts[0] === 'modules' ? `modules/${parts[1]}` : parts[0];
}

function resolveImport(from, spec) {
  const base = resolve(dirname(from), spec);
  for (const candidate of [
    base,
    base.replace(/\.js$/, '.ts'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const edges = new Map();
const fileEdges = [];
for (const file of walk(root)) {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = resolveImport(file, match[1]);
    if (!target || !target.startsWith(root)) continue;
    const [a, b] = [room(file), room(target)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a).add(b);
    fileEdges.push([relative(root, file), relative(root, target)]);
  }
}

// Tarjan's strongly connected components.
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])])].sort();
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function connect(v) {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!index.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) circles.push(group.sort());
  }
}
for (const v of nodes) if (!index.has(v)) connect(v);

const moduleArrows = [...edges].reduce(
  (n, [a, to]) => n + (a.startsWith('modules/') ? [...to].filter((b) => b.startsWith('modules/')).length : 0),
  0,
);
console.log(
  `${relative(process.cwd(), root) || '.'}: ${nodes.length} rooms, ${moduleArrows} module-to-module arrows`,
);
console.log(`${circles.length} folder-level import circle(s)`);
for (const group of circles) {
  console.log(`- ${group.length} rooms: ${group.join(', ')}`);
  if (verbose) {
    const members = new Set(group);
    for (const [a, b] of fileEdges)
      if (members.has(room(join(root, a))) && members.has(room(join(root, b))))
        console.log(`    ${a} -> ${b}`);
  }
}
process.exitCode = circles.length === 0 ? 0 : 1;
