import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'var/**', 'test-results/**', 'playwright-report/**', 'apps/api/src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Rendered HTML is not allowed (escape text instead).' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // Import direction (architecture §1): shared imports no app; api and web never import each other; e2e only shared.
  { files: ['packages/shared/**'], rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@portale/api*', '@portale/web*'] }] } },
  { files: ['apps/api/**'], rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/web/**', '@portale/web*'] }] } },
  { files: ['apps/web/**'], rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/api/**', '@portale/api*'] }] } },
  { files: ['e2e/**'], rules: { 'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@portale/api*', '@portale/web*'] }] } },
);
