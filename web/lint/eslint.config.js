// The console's lint rules. Run from web/ (`npm run lint`, `make lint-web`): with -c, the patterns below are read
// relative to web/, while the plugins resolve from this folder's own node_modules (see package.json for why).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

// Layers of src/, most shared last (src/main.tsx, the entry, belongs to none and may import any). A feature stands beside the others: it uses the shared layers (shared/, i18n/,
// map/) and never another feature; the app shell composes the features and no feature imports it.
const elements = [
  { type: 'app', pattern: 'src/app' },
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
  { type: 'phone', pattern: 'src/phone' },
  { type: 'map', pattern: 'src/map' },
  { type: 'i18n', pattern: 'src/i18n' },
  { type: 'shared', pattern: 'src/shared' },
  { type: 'test', pattern: 'src/test' },
];
const shared = ['shared', 'i18n'];
const allow = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { types: { anyOf: to } } } } });

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'lint/node_modules/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // `_name` marks what a destructuring leaves out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/include': ['src/**/*'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'disallow',
        policies: [
          allow('app', ['app', 'feature', 'map', 'i18n', 'shared']),
          // A feature may use its own folder and the shared layers, never another feature.
          {
            from: { element: { type: 'feature' } },
            allow: { to: { element: { type: 'feature', captured: { feature: '{{ from.element.captured.feature }}' } } } },
          },
          allow('feature', ['map', ...shared]),
          allow('phone', ['phone', ...shared]),
          allow('map', ['map', ...shared]),
          allow('i18n', shared),
          allow('shared', shared),
          allow('test', ['test', ...shared]),
        ],
      }],
    },
  },
  // Node scripts; the benches also hold functions that run in the page they drive.
  {
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs', 'src/**/*.mjs', 'lint/*.js', '*.config.{js,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ['bench/**/*.mjs'], languageOptions: { globals: { ...globals.browser } } },
);
