import { describe, expect, it } from 'vitest';
import { crashExcerpt, playwrightOutcome, stepFailed, vitestOutcome } from './test-summary.mjs';

describe('vitestOutcome', () => {
  it('counts passed and failed tests of a normal run', () => {
    const report = {
      numPassedTests: 9,
      numFailedTests: 1,
      testResults: [{ name: 'a.test.ts', status: 'failed', assertionResults: [{ status: 'failed' }] }],
    };
    expect(vitestOutcome('unit', report, 1)).toEqual({
      passed: 9,
      failed: 1,
      problems: ['unit: 1 failed test(s)'],
    });
    expect(vitestOutcome('unit', { numPassedTests: 5, numFailedTests: 0, testResults: [] }, 0)).toEqual({
      passed: 5,
      failed: 0,
      problems: [],
    });
  });

  it('counts a missing report as one failure with the suite name', () => {
    expect(vitestOutcome('unit', undefined, 1)).toEqual({
      passed: 0,
      failed: 1,
      problems: ['unit: could not start (exit 1, no report)'],
    });
  });

  it('counts a test file that failed to load, and a crash with nothing failed', () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 0,
      testResults: [{ name: 'b.test.ts', status: 'failed', message: 'boom\nstack', assertionResults: [] }],
    };
    expect(vitestOutcome('unit', report, 1)).toEqual({
      passed: 3,
      failed: 1,
      problems: ['unit: b.test.ts did not run (boom)'],
    });
    const crashed = vitestOutcome('unit', { numPassedTests: 3, numFailedTests: 0, testResults: [] }, 1);
    expect(crashed.failed).toBe(1);
    expect(crashed.problems).toEqual(['unit: crashed (exit 1) with no failed test']);
  });

  it('repeats what Vitest printed about a crash: the unhandled errors, else the tail', () => {
    const output = [
      ' \u001b[32m✓\u001b[39m a.test.ts (3 tests) 20ms',
      '',
      '\u001b[31m⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯\u001b[39m',
      'Vitest caught 1 unhandled error during the test run.',
      '⎯⎯⎯ Unhandled Rejection ⎯⎯⎯',
      'Error: connection terminated',
      ' ❯ src/lib/x.ts:3:9',
      'This error originated in "b.test.ts" test file.',
    ].join('\n');
    const crashed = vitestOutcome(
      'unit',
      { numPassedTests: 3, numFailedTests: 0, testResults: [] },
      1,
      output,
    );
    expect(crashed.problems).toEqual([
      [
        'unit: crashed (exit 1) with no failed test; Vitest printed:',
        '⎯⎯⎯⎯ Unhandled Errors ⎯⎯⎯⎯',
        'Vitest caught 1 unhandled error during the test run.',
        '⎯⎯⎯ Unhandled Rejection ⎯⎯⎯',
        'Error: connection terminated',
        ' ❯ src/lib/x.ts:3:9',
        'This error originated in "b.test.ts" test file.',
      ].join('\n'),
    ]);
    const tail = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    expect(crashExcerpt(tail).split('\n')).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i + 60}`));
  });
});

describe('playwrightOutcome', () => {
  it('counts expected and unexpected tests', () => {
    expect(
      playwrightOutcome('e2e', { stats: { expected: 40, unexpected: 2, flaky: 0 }, errors: [] }, 1),
    ).toEqual({ passed: 40, failed: 2, problems: ['e2e: 2 failed test(s)'] });
  });

  it('counts servers that could not start as a failure, never as zero', () => {
    const report = {
      stats: { expected: 0, unexpected: 0, flaky: 0 },
      errors: [{ message: 'Error: Process from config.webServer was not able to start. Exit code: 1' }],
    };
    expect(playwrightOutcome('e2e', report, 1)).toEqual({
      passed: 0,
      failed: 1,
      problems: [
        'e2e: could not start: Error: Process from config.webServer was not able to start. Exit code: 1',
      ],
    });
    expect(playwrightOutcome('e2e', undefined, 1)).toEqual({
      passed: 0,
      failed: 1,
      problems: ['e2e: could not start (exit 1, no report)'],
    });
    expect(playwrightOutcome('e2e', { stats: { expected: 3, unexpected: 0 } }, 130).failed).toBe(1);
  });

  it('names a step that stopped the suite', () => {
    expect(stepFailed('e2e', 'web build failed', 2)).toEqual({
      passed: 0,
      failed: 1,
      problems: ['e2e: web build failed (exit 2)'],
    });
  });
});
