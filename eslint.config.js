// Lint: ESLint's and typescript-eslint's recommended rules, for the library, its tests and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'packages/service/dist/',
      'node_modules/',
      'coverage/',
      'custom-elements.json',
      'bench/results/',
      'docs/api/',
      'docs/.vitepress/dist/',
      'docs/.vitepress/cache/',
      // The framework apps' build output (examples/frameworks).
      '**/dist/',
      '**/.next/',
      'examples/frameworks/*/next-env.d.ts',
      'examples/frameworks/test-results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        location: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // The partner example suite shows how a partner's tests wait: on an event, a status or the step
    // clock (docs/testing-your-integration.md), never on time.
    files: ['examples/partner-e2e/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'waitForTimeout', message: 'Wait for a state (expect, waitForStatus), not for time.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Wait for a state (expect, waitForStatus) or advance the step clock.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='setTimeout']:not([callee.object.name='test'])",
          message: 'Wait for a state (expect, waitForStatus) or advance the step clock.',
        },
        {
          selector: 'ImportDeclaration[source.value=/timers/]',
          message: 'Wait for a state (expect, waitForStatus) or advance the step clock, not on node:timers.',
        },
      ],
    },
  },
);
