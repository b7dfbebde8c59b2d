import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import rota from './eslint/rota-rules.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      // The packaged agent (npm run package:agent): a bundle of code linted at its source.
      'apps/agent/release/**',
      '**/node_modules/**',
      '**/drizzle/**',
      'data/**',
      '.e2e/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // One owner per table (the file under db/schema/ that declares it), repositories private to
    // their module.
    files: ['apps/server/src/**/*.ts'],
    plugins: { rota },
    rules: {
      'rota/table-owner': 'error',
      'rota/module-boundary': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/tenant-scope.js'],
              importNames: ['userScope'],
              message:
                "Only the auth hook builds a user's scope; background work uses systemScope.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/http/auth.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Loaded with import() where they are used (memory: a server holding
    // 20,000 agents' connections should not carry SMTP, SSO, TOTP or the embedded database's code
    // it never runs). Type imports are free.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/db/pglite.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['nodemailer', 'openid-client', 'otplib', 'qrcode'].map((name) => ({
            name,
            allowTypeImports: true,
            message:
              'Load it with import() where it is used (see docs/decisions/0170-rarely-used-packages-load-on-first-use-npm-start-caps-the.md).',
          })),
          patterns: [
            {
              group: [
                '@electric-sql/pglite',
                '@electric-sql/pglite/*',
                'drizzle-orm/pglite*',
                '**/db/pglite.js',
              ],
              allowTypeImports: true,
              message: 'PGlite loads only for the embedded database: import() db/pglite.js.',
            },
          ],
        },
      ],
    },
  },

  {
    // Comments say why themselves; the generated API client repeats the served document's text.
    files: ['**/*.{js,mjs,cjs,ts,tsx}'],
    ignores: ['apps/server/test/generated/**'],
    plugins: { rota },
    rules: { 'rota/no-outside-citation': 'error' },
  },
  {
    files: ['**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    ...reactHooks.configs.flat.recommended,
  },
  // Console features meet through their public index.ts (docs/decisions/0102-*): a
  // feature's api/, components/, hooks/ and routes/ are its own. One block per depth, because
  // the patterns match the import as written (`../b/x` from a feature's root, `../../b/x` below).
  ...[
    ['apps/web/src/features/*/*.{ts,tsx}', '../'],
    ['apps/web/src/features/*/*/*.{ts,tsx}', '../../'],
  ].map(([files, up]) => ({
    files: [files],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [`${up}[a-z]*/**`, `!${up}[a-z]*/index`],
              message:
                'Import another feature through its index.ts (`../../robots`), or move what is shared to src/components or src/lib.',
            },
          ],
        },
      ],
    },
  })),
  {
    // Shared code serves every feature and depends on none (the i18n typing only reads locales).
    files: ['apps/web/src/{components,lib}/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/i18next.d.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**'],
              message: 'src/components and src/lib must not import a feature.',
            },
          ],
        },
      ],
    },
  },
);
