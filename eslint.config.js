import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const API_BAN = ['**/apps/api/**', '@portale/api*'];

/** API files that may query with Drizzle (decision 011), and the API's tests. */
const ORM_FILES = [
  'apps/api/src/**/*.repository.ts',
  'apps/api/src/db/**',
  'apps/api/src/seed/**',
  'apps/api/src/lib/list.ts',
  'apps/api/src/lib/audit.ts',
];
const API_TESTS = 'apps/api/src/**/*.test.ts';
const ORM_MESSAGE = 'Queries live in <module>.repository.ts (decision 011).';
const ORM_BAN = { name: 'drizzle-orm', message: ORM_MESSAGE };
const ORM_GROUP_BAN = { group: ['drizzle-orm/*'], message: ORM_MESSAGE };
const WEB_FROM_API_BAN = {
  group: ['**/apps/web/**', '@portale/web*'],
  message: 'The API never imports the web.',
};

/** The module floor's forbidden imports (decision 044). */
const MODULE_RULES = [
  {
    regex: String.raw`^\.\./(?!\.\./)[^/]+/(?!index\.ts$)`,
    message: "A module imports another module only through its index.ts (the module's face, decision 044).",
  },
  { regex: String.raw`(^|/)seed/`, message: 'seed/ sits above modules/: a module never imports it.' },
];
const SERVICE_ONLY = "is a service's work (<feature>.service.ts, decision 049): the route calls the service.";
/** What a route file may not import (decision 049). */
const ROUTE_RULES = [
  {
    regex: String.raw`(^|/)db/transaction\.ts$`,
    importNames: ['withTransaction'],
    message: `A transaction ${SERVICE_ONLY}`,
  },
  {
    regex: String.raw`(^|/)lib/audit\.ts$`,
    importNames: ['auditWrite', 'writeAudit'],
    message: `An audit row ${SERVICE_ONLY}`,
  },
  {
    regex: String.raw`(^|/)messages/(index|outbox\.repository)\.ts$`,
    importNames: ['enqueueMessage'],
    message: `A queued message ${SERVICE_ONLY}`,
  },
];

/** One floor of the API: its forbidden import paths, plus the web ban and (outside ORM_FILES) the ORM ban. */
function apiFloor(files, regexes) {
  return [
    {
      files: [files],
      ignores: [...ORM_FILES, API_TESTS],
      rules: {
        'no-restricted-imports': [
          'error',
          { paths: [ORM_BAN], patterns: [ORM_GROUP_BAN, WEB_FROM_API_BAN, ...regexes] },
        ],
      },
    },
    {
      files: ORM_FILES.map((orm) => [files, orm]),
      ignores: [API_TESTS],
      rules: { 'no-restricted-imports': ['error', { patterns: [WEB_FROM_API_BAN, ...regexes] }] },
    },
  ];
}

/** The web's import direction for one layer: forbidden import paths with the rule they break. */
function webLayer(files, regexes) {
  return [
    {
      files: [files],
      rules: { 'no-restricted-imports': ['error', { patterns: [{ group: API_BAN }, ...regexes] }] },
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'var/**',
      'test-results/**',
      'playwright-report/**',
      'apps/api/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Rendered HTML is not allowed (escape text instead).',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Import direction (architecture §1): shared imports no app; api and web never import each other; e2e only shared (and the API suite's test fixtures).
  {
    files: ['packages/shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@portale/api*', '@portale/web*'] }],
    },
  },
  {
    files: ['apps/api/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/web/**', '@portale/web*'] }] },
  },
  // One place knows the ORM (decision 011): in the API's code only repositories, db/ and the list and
  // audit helpers import Drizzle (and seed/, a script above modules/). This entry replaces the rule
  // above for these files, so it repeats it.
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: [...ORM_FILES, API_TESTS],
    rules: {
      'no-restricted-imports': ['error', { paths: [ORM_BAN], patterns: [ORM_GROUP_BAN, WEB_FROM_API_BAN] }],
    },
  },
  // Inside the API (decision 044): app.ts, server.ts and seed/ → modules/ → plugins/ → lib/ → db/, and a
  // module lends the others only its index.ts. Tests stand above every floor. Later entries replace the
  // rule, so apiFloor repeats the web ban and, outside the files that may query, the ORM ban.
  ...apiFloor('apps/api/src/modules/**', MODULE_RULES),
  // One home for a multi-step rule (decision 049): a route file keeps the contract, the resource loader
  // and one service call; transactions, audit rows and queued messages are the service's.
  ...apiFloor('apps/api/src/modules/**/*.routes.ts', [...MODULE_RULES, ...ROUTE_RULES]),
  ...apiFloor('apps/api/src/plugins/**', [
    {
      regex: String.raw`(^|/)(modules|seed)/`,
      message: 'plugins/ sits below modules/: app.ts hands a plugin what it needs from a module.',
    },
  ]),
  ...apiFloor('apps/api/src/lib/**', [
    { regex: String.raw`(^|/)(plugins|modules|seed)/`, message: 'lib/ imports only lib/ and db/.' },
  ]),
  ...apiFloor('apps/api/src/db/**', [
    {
      regex: String.raw`(^|/)(lib|plugins|modules|seed)/`,
      message: 'db/ is the bottom floor: it imports no other folder.',
    },
  ]),
  // A feature's templates add their keys to messages' `TemplateKeys` (declaration merging, decision 044):
  // `interface TemplateKeys extends Record<…, true> {}` is the merge, not an empty type.
  {
    files: ['apps/api/src/modules/*/*.templates.ts'],
    rules: {
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    files: ['apps/web/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/api/**', '@portale/api*'] }] },
  },
  // Inside the web (architecture §1): app → features → components/lib, a feature never imports another
  // feature, and lib is the bottom layer. Later entries replace the rule, so each repeats the API ban.
  ...webLayer('apps/web/src/features/**', [
    {
      regex: String.raw`^\.\./(?!\.\./)[^/]+/`,
      message:
        'A feature never imports another feature: compose in app/ or move the piece to components/ or lib/.',
    },
    {
      regex: String.raw`(^|/)(app|features)/`,
      message: 'A feature imports only components/, lib/ and its own files.',
    },
  ]),
  ...webLayer('apps/web/src/components/**', [
    {
      regex: String.raw`(^|/)(app|features)/`,
      message: 'components/ is below app/ and features/: pass what it needs as props.',
    },
  ]),
  ...webLayer('apps/web/src/lib/**', [
    {
      regex: String.raw`(^|/)(app|features|components)/`,
      message: 'lib/ is the bottom layer: it imports no app, feature or component.',
    },
  ]),
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // No import cycle in the API or in shared either (decision 044). A lazy `import()` (the S3 SDK, loaded
  // only when FILE_STORE=s3) is not a load-order cycle.
  {
    files: ['apps/api/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
    },
  },
  // e2e imports only shared, and the API suite's test fixtures (a test CA, trusted list, OCSP responder): tools, not the product.
  {
    files: ['e2e/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: String.raw`(^|/)apps/(?!api/test/support/[a-z-]+-fixtures\.ts$)` },
            { group: ['@portale/api*', '@portale/web*'] },
          ],
        },
      ],
    },
  },
  // The same habit in the API and shared (issue 36): a source file stays under 400 lines, tests aside (a
  // suite of one endpoint reads best whole).
  {
    files: ['apps/api/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/api/src/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
  // Decision 045: a web source file stays under 400 lines (blank lines and comments aside); a page that
  // grows a second panel is split along its seams.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },
);
