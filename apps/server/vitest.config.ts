import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files whose code paths differ on the embedded database: its single connection (the finish
 * batcher holds it), its LISTEN/NOTIFY inside the process, blobs on disk, the data folder it
 * opens, and real agents and servers started on it. With DATABASE_URL set, the whole suite runs on
 * PostgreSQL and these run a second time on PGlite; without it, everything runs on PGlite once.
 */
const EMBEDDED_FILES = [
  'test/agent-integration.test.ts',
  'test/artifacts.test.ts',
  'test/backup.test.ts',
  'test/backup-migration.test.ts',
  'test/blob-store.test.ts',
  'test/config.test.ts',
  'test/dispatch-batch.test.ts',
  'test/engine.test.ts',
  'test/environments.test.ts',
  'test/live-events.test.ts',
  'test/robot-versions.test.ts',
  'test/seed.test.ts',
  'test/stop-agent-integration.test.ts',
  'test/users.test.ts',
];

const postgres = Boolean(process.env.DATABASE_URL);

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
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most files wait on a database, a socket or a child process more than on the CPU: two
    // cores keep three files busy.
    maxWorkers: Number(process.env.ROTA_TEST_WORKERS) || 3,
    projects: [
      ...(postgres
        ? [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/**/*.test.ts'],
                globalSetup: ['./test/global-setup-postgres.ts'],
              },
            },
          ]
        : []),
      {
        extends: true as const,
        test: {
          name: 'embedded',
          include: postgres ? EMBEDDED_FILES : ['test/**/*.test.ts'],
          globalSetup: ['./test/global-setup.ts'],
          // An empty DATABASE_URL counts as unset, for the tests and the processes they start.
          env: { DATABASE_URL: '' },
        },
      },
    ],
  },
});
