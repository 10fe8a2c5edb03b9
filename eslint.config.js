// Code lint: typescript-eslint, React hooks and jsx-a11y. Layering and cycles are dependency-cruiser's job.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '.dependency-cruiser.cjs',
      'dist/',
      'node_modules/',
      'compat/',
      'storybook-static/',
      'coverage/',
      '**/.next/',
      '**/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // React code only: test helpers named use* (useHarness) are not React hooks.
    files: [
      'src/react/**/*.{ts,tsx}',
      'stories/**/*.{ts,tsx}',
      'playground/**/*.{ts,tsx}',
      '.storybook/**/*.{ts,tsx}',
      'examples/**/*.tsx',
      'test/react/**/*.tsx',
    ],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
  },
  {
    // A source file over 400 lines holds two ideas: split it (docs/architecture.md, Layers).
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400 }] },
  },
  {
    // Tests read arbitrary JSON bodies.
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
