import { defineConfig } from 'vitest/config';

/** The SIGKILL scenarios on real processes (built server and agent, PostgreSQL): `.ci/run`. */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['chaos/**/*.test.ts'],
    testTimeout: 420_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
