// The web client's lint (make lint): ESLint's recommended rules over the sources, the browser's globals
// (a service worker's for sw.js, Node's for the build and the node tests).
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['gateway/static/dist/**', 'gateway/static/vendor/**'] },
  js.configs.recommended,
  {
    files: ['gateway/static/**/*.js', 'gateway/static/**/*.mjs'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
  },
  { files: ['gateway/static/sw.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ['gateway/static/tests/**', 'gateway/static/build.mjs', 'tools/**/*.mjs'], languageOptions: { globals: { ...globals.node } } },
];
