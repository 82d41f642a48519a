import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-artifacts/**', 'bin/**', 'eslint.config.js'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'take the time from the Clock' }],
    },
  },
  {
    files: ['test/**', 'bench/**', '**/*.test.ts', 'src/platform/db/**', 'src/platform/http/**', 'src/platform/logger.ts', 'src/cli/**', 'web/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // The auditor's verifier is plain JavaScript on Node's standard library, outside the TypeScript project.
  {
    files: ['scripts/**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { projectService: false }, globals: { Buffer: 'readonly', console: 'readonly', process: 'readonly' } },
  },
);
