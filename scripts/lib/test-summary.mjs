// Turns the reports of the test runners into counts for the closing `N passed, N failed` line.
// A suite that could not start, crashed, or left no report counts as one failure with its name:
// it never adds zero.

const firstLine = (text) =>
  String(text ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim() ?? '';

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const EXCERPT_LINES = 40;

/**
 * What Vitest printed about a crash with nothing failed, to repeat beside the closing line (a CI log
 * often keeps only its tail): the "Unhandled Errors" section (unhandled rejections, a worker that
 * exited or could not be stopped), else the last lines of the output. At most 40 lines, no colours.
 */
export function crashExcerpt(output) {
  const lines = String(output ?? '')
    .replace(ANSI, '')
    .split('\n')
    .map((l) => l.trimEnd());
  const start = lines.findIndex((l) => /Unhandled (Error|Rejection)/.test(l));
  const from = start >= 0 ? start : Math.max(0, lines.length - EXCERPT_LINES);
  return lines
    .slice(from, from + EXCERPT_LINES)
    .filter((l) => l.trim())
    .join('\n');
}

/**
 * Vitest (`--reporter=json`). A test file that failed to load has no failed test of its own: it counts
 * as one failure. A non-zero exit with nothing failed (startup error, unhandled error) counts as one,
 * with what Vitest printed about it (`output`, when kept).
 */
export function vitestOutcome(name, report, exitCode, output) {
  if (!report)
    return { passed: 0, failed: 1, problems: [`${name}: could not start (exit ${exitCode}, no report)`] };
  const problems = [];
  let failed = report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    const testFailed = (file.assertionResults ?? []).some((a) => a.status === 'failed');
    if (file.status === 'failed' && !testFailed) {
      failed += 1;
      problems.push(`${name}: ${file.name} did not run (${firstLine(file.message) || 'failed to load'})`);
    }
  }
  if (report.numFailedTests) problems.unshift(`${name}: ${report.numFailedTests} failed test(s)`);
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    const excerpt = output === undefined ? '' : crashExcerpt(output);
    problems.push(
      `${name}: crashed (exit ${exitCode}) with no failed test${excerpt ? `; Vitest printed:\n${excerpt}` : ''}`,
    );
  }
  return { passed: report.numPassedTests ?? 0, failed, problems };
}

/**
 * Playwright (JSON reporter). Global errors (a web server that did not start, a crashed worker, a
 * broken config) count as one failure each; a non-zero exit with nothing failed counts as one.
 */
export function playwrightOutcome(name, report, exitCode) {
  const stats = report?.stats;
  if (!stats)
    return { passed: 0, failed: 1, problems: [`${name}: could not start (exit ${exitCode}, no report)`] };
  const problems = [];
  let failed = stats.unexpected ?? 0;
  if (failed) problems.push(`${name}: ${failed} failed test(s)`);
  const ran = (stats.expected ?? 0) + (stats.unexpected ?? 0) + (stats.flaky ?? 0) > 0;
  for (const error of report.errors ?? []) {
    failed += 1;
    problems.push(
      `${name}: ${ran ? '' : 'could not start: '}${firstLine(error.message) || 'error outside the tests'}`,
    );
  }
  if (exitCode !== 0 && failed === 0) {
    failed = 1;
    problems.push(`${name}: could not start or crashed (exit ${exitCode})`);
  }
  // Retries are off: a flaky test is reported and counted as passed, as Playwright does.
  if (stats.flaky) problems.push(`${name}: ${stats.flaky} flaky test(s)`);
  return { passed: (stats.expected ?? 0) + (stats.flaky ?? 0), failed, problems };
}

/** A step that stopped the suite before its runner (e.g. the build): one failure with its name. */
export function stepFailed(name, what, exitCode) {
  return { passed: 0, failed: 1, problems: [`${name}: ${what} (exit ${exitCode})`] };
}
