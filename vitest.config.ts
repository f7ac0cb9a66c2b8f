import { defineConfig } from 'vitest/config';

/**
 * API test files that read state kept once per process (the statement names of `lib/list.ts`, capped
 * at 64): they run in a fresh module graph of their own, after nothing else has filled it.
 */
const API_FRESH_PROCESS = [
  'test/named-statements.test.ts',
  // Mocks the exact audit for the suites it imports again: its own module graph.
  'src/modules/results/results-audit-crosscheck.test.ts',
];

export default defineConfig({
  test: {
    // PGlite in memory costs ~700 MiB per instance: two workers on two cores.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'shared',
          root: './packages/shared',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      { test: { name: 'scripts', root: './scripts', include: ['**/*.test.mjs'], environment: 'node' } },
      {
        test: {
          name: 'api',
          root: './apps/api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: API_FRESH_PROCESS,
          environment: 'node',
          // The seeded databases every test app is copied from, prepared once per run.
          globalSetup: ['./test/global-setup.ts'],
          // The files of a worker share one module graph: the app is imported once, not once per file
          // (docs/decisions/031). A file that tests process-wide state goes to `api-isolated`.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-isolated',
          root: './apps/api',
          include: API_FRESH_PROCESS,
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          root: './apps/web',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        // Component tests: one page of each kind rendered in jsdom with React Router's route stubs,
        // for the behaviour that needs no server (validation, filters in the URL, empty states).
        // design-react-kit exports its ES build under the bundlers' `module` condition only, with
        // extensionless imports: Vite resolves it, as for the app.
        resolve: { conditions: ['module', 'browser', 'development'] },
        test: {
          name: 'web-dom',
          root: './apps/web',
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['./src/test/dom-setup.ts'],
          server: { deps: { inline: ['design-react-kit'] } },
          testTimeout: 30_000,
        },
      },
    ],
  },
});
