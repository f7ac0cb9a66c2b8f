// The public results' suppression with the incremental exact audit (results-audit.ts) against the
// audit as it was (results-audit-reference.ts), in the same process, alternately, on the same tallies:
// the median times side by side, and the proof that nothing changes (every audit call's withheld
// figures in the same order, and the JSON of every view byte for byte).
//
// Usage: npx tsx bench/results-audit.ts [--tallies FILE] [--synthetic] [--scale S] [--rounds N]
//   --tallies FILE  the items and tallies of a survey, as written by
//                   `DUMP_TALLIES=FILE DATABASE_URL=<bench db> npx tsx bench/results-pieces.ts`
//   --synthetic     tallies of realistic shape instead: 99 atomic groups (20 regions × 5 levels, one
//                   missing) × 27 single-choice items of 4–6 answers, seeded
//   --scale S       the synthetic respondents per group × S (default 1; 10 for ten times the volume)
//   --rounds N      runs of each (default 3)
//   --only new|old  run one of them only (to profile it)
//   --write FILE    write the input (as --tallies reads it) and stop
//   --against DIR   "old" is the whole suppression of another copy of the results module (e.g. the
//                   branch point's, `git archive <commit> apps/api/src/modules/results | tar -x -C …`),
//                   instead of this one with the reference audit: the JSON compared, not the audit calls
// Times: wall clock and the process's CPU time (user + system), which a machine shared with other
// work inflates less; the medians of both.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { auditWithhold } from '../apps/api/src/modules/results/results-audit.ts';
import { auditWithholdReference } from '../apps/api/src/modules/results/results-audit-reference.ts';
import {
  suppressTallies,
  type CategoryCount,
  type Group,
  type ItemDef,
} from '../apps/api/src/modules/results/results-suppression.ts';

const { values: args } = parseArgs({
  options: {
    tallies: { type: 'string' },
    synthetic: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '3' },
    only: { type: 'string' },
    write: { type: 'string' },
    against: { type: 'string' },
  },
});

interface Input {
  items: ItemDef[];
  groups: Group[];
  pairs: [string, CategoryCount[]][];
  minGroup: number;
}

/** A seeded pseudo-random sequence in [0, 1). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function synthetic(scale: number): Input {
  const rnd = random(2026);
  const regions = Array.from({ length: 20 }, (_, i) => `Regione ${i + 1}`);
  const levels = ['infanzia', 'primaria', 'secondaria1', 'secondaria2', 'cpia'];
  const groups: Group[] = [];
  for (const region of regions)
    for (const level of levels) {
      if (groups.length === 99) break;
      // Skewed sizes: a few groups of some hundreds, many of tens, some of a handful.
      const n = Math.max(1, Math.round(scale * 700 * rnd() ** 3));
      groups.push({ region, level, n });
    }
  const items: ItemDef[] = [];
  const pairs: [string, CategoryCount[]][] = [];
  for (let q = 0; q < 27; q++) {
    const answers = Array.from({ length: 4 + (q % 3) }, (_, i) => `r${i + 1}`);
    const categories = [...answers, '__nessuna'];
    items.push({ id: `q${q}`, categories, published: categories });
    const weights = categories.map((_, i) => (i === categories.length - 1 ? 0.05 : 0.3 + rnd() * (i + 1)));
    const total = weights.reduce((s, x) => s + x, 0);
    const list: CategoryCount[] = [];
    groups.forEach((group, g) => {
      const counts = categories.map(() => 0);
      for (let r = 0; r < group.n; r++) {
        let x = rnd() * total;
        let k = 0;
        while (k < categories.length - 1 && x >= weights[k]!) x -= weights[k++]!;
        counts[k]!++;
      }
      categories.forEach((c, k) => {
        if (counts[k]! > 0) list.push({ g, c, n: counts[k]! });
      });
    });
    pairs.push([`q${q}`, list]);
  }
  return { items, groups, pairs, minGroup: 5 };
}

const input: Input = args.tallies
  ? (JSON.parse(readFileSync(args.tallies, 'utf8')) as Input)
  : synthetic(Number(args.scale));
if (!args.tallies && !args.synthetic) console.log('(no --tallies: synthetic tallies)');
if (args.write) {
  writeFileSync(args.write, JSON.stringify(input));
  process.exit(0);
}
const tallies = { groups: input.groups, pairs: new Map(input.pairs) };
const against = args.against
  ? ((await import(resolve(args.against, 'results-suppression.ts'))) as {
      suppressTallies: typeof suppressTallies;
    })
  : undefined;
let cells = 0;
for (const [, p] of input.pairs) cells += p.length;
console.log(
  `${input.groups.length} groups, ${input.items.length} items, ${cells} pairs, ` +
    `${input.groups.reduce((s, g) => s + g.n, 0)} respondents, minGroup ${input.minGroup}`,
);

type Audit = typeof auditWithhold;
const recording = (audit: Audit, log: (number[] | null)[]): Audit => {
  return (...a) => {
    const withheld = audit(...a);
    log.push(withheld ? [...withheld] : null);
    return withheld;
  };
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
const times = { old: [] as number[], new: [] as number[] };
const cpu = { old: [] as number[], new: [] as number[] };
let equal = true;
let calls = 0;
for (let round = 0; round < Number(args.rounds); round++) {
  const out: Record<'old' | 'new', { json: string; log: (number[] | null)[] }> = {
    old: { json: '', log: [] },
    new: { json: '', log: [] },
  };
  // Alternately, the new one first every other round, so that neither always runs on a warmer process.
  const order = (round % 2 === 0 ? ['old', 'new'] : ['new', 'old']).filter(
    (w) => !args.only || w === args.only,
  ) as ('old' | 'new')[];
  for (const which of order) {
    const audit = recording(which === 'old' ? auditWithholdReference : auditWithhold, out[which].log);
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const results =
      which === 'old' && against
        ? against.suppressTallies(input.items, tallies, input.minGroup)
        : suppressTallies(input.items, tallies, input.minGroup, { audit });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpuStarted);
    const cpuMs = (used.user + used.system) / 1000;
    times[which].push(ms);
    cpu[which].push(cpuMs);
    out[which].json = JSON.stringify([...results.views]);
    console.log(
      `round ${round + 1} ${which}: ${ms.toFixed(0)} ms, CPU ${cpuMs.toFixed(0)} ms (RSS ${mib(rss)} → ${mib(process.memoryUsage().rss)})`,
    );
  }
  calls = out.new.log.length;
  if (args.only) continue;
  const same =
    out.old.json === out.new.json &&
    (!!against || JSON.stringify(out.old.log) === JSON.stringify(out.new.log));
  if (!same) equal = false;
}
if (args.only) process.exit(0);
console.log(
  `suppression: old median ${median(times.old).toFixed(0)} ms, new median ${median(times.new).toFixed(0)} ms ` +
    `(×${(median(times.old) / median(times.new)).toFixed(1)}); CPU old ${median(cpu.old).toFixed(0)} ms, ` +
    `new ${median(cpu.new).toFixed(0)} ms (×${(median(cpu.old) / median(cpu.new)).toFixed(1)}); ${calls} audit calls, ` +
    (against ? `views' JSON equal: ${equal}` : `withheld figures and views' JSON equal: ${equal}`),
);
if (!equal) process.exitCode = 1;
