// ESLint for the whole tree: typescript-eslint's recommended rules; Prettier owns the layout
// (eslint-config-prettier turns the layout rules off) and max-len keeps what Prettier cannot wrap
// (strings, comments) within 120 columns.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.tap/', '.fuzz/', '**/fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: globals.node },
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true }],
      // A name starting with _ is unused on purpose (a destructured field left out, a callback's slot).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // TypeScript resolves names itself, and knows the DOM and Node globals better than a list.
    files: ['**/*.ts'],
    rules: { 'no-undef': 'off' },
  },
  {
    // The web interface's script runs in the browser.
    files: ['plugins/web/static/**/*.js'],
    languageOptions: { globals: globals.browser, sourceType: 'script' },
  },
  {
    // Tests read JSON answers loosely: a typed copy of every answer would only repeat the API.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
