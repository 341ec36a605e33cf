// Lint rules: typescript-eslint's recommended set, plus the promise rules that catch a
// forgotten `await` (a lost offer or an unflushed write is the kind of bug we cannot afford).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bin/**', 'eslint.config.js', 'src/**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  // The dashboard's browser modules: plain JavaScript served as written, so no type information,
  // and the browser's globals (Chart is Chart.js's UMD build, loaded by the page).
  {
    files: ['src/operator/dashboard/assets/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'document',
          'window',
          'fetch',
          'FormData',
          'Node',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'URLSearchParams',
          'Chart',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
);
