// The JSX runtime of the tests' own markup, loaded before any page module: when design-react-kit
// (inlined, see vitest.config.ts) loaded it first, a test file's `jsxDEV` import came back undefined.
import 'react/jsx-dev-runtime';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Each test starts from an empty document (Testing Library's automatic cleanup needs global hooks).
afterEach(() => cleanup());
