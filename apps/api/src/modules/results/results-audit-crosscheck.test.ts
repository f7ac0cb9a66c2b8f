// The existing suppression and disclosure suites, run again with every exact audit they make checked
// against the full audit of results-audit-reference.ts: the same figures withheld in the same order.
import { afterAll, expect, vi } from 'vitest';

const checked = vi.hoisted(() => ({ calls: 0, withheld: 0, differ: [] as string[] }));

vi.mock('./results-audit.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./results-audit.ts')>();
  const { auditWithholdReference } = await import('./results-audit-reference.ts');
  const auditWithhold: typeof actual.auditWithhold = (...args) => {
    const got = actual.auditWithhold(...args);
    const expected = auditWithholdReference(...args);
    checked.calls++;
    checked.withheld += expected?.size ?? 0;
    const a = JSON.stringify(got && [...got]);
    const b = JSON.stringify(expected && [...expected]);
    if (a !== b) checked.differ.push(`${a} ≠ ${b}`);
    return got;
  };
  return { ...actual, auditWithhold };
});

await import('./results-suppression.test.ts');
await import('./results-disclosure.test.ts');

afterAll(() => {
  expect(checked.differ).toEqual([]);
  // The suites do reach the audit, and it withholds something.
  expect(checked.calls).toBeGreaterThan(1000);
  expect(checked.withheld).toBeGreaterThan(100);
  console.log(`audit calls cross-checked: ${checked.calls}, figures withheld: ${checked.withheld}`);
});
