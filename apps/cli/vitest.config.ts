import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const postgres = Boolean(process.env.DATABASE_URL);
const server = (file: string) => fileURLToPath(new URL(`../server/test/${file}`, import.meta.url));

/**
 * The CLI's tests start the real server in-process on a fresh database (the server tests'
 * templates): PostgreSQL with DATABASE_URL, the embedded database without it.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@rota/contract': fileURLToPath(
        new URL('../../packages/contract/src/index.ts', import.meta.url),
      ),
      '@rota/archive-check': fileURLToPath(
        new URL('../../packages/archive-check/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: [server(postgres ? 'global-setup-postgres.ts' : 'global-setup.ts')],
  },
});
