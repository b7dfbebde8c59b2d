import { defineConfig } from '@playwright/test';
import { E2E_ADMIN_PASSWORD, E2E_DIR, E2E_PORT, E2E_URL } from './e2e/fixtures/constants';

/** End to end on the built server and console, in Debian's Chromium (never a downloaded browser). */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: `${E2E_DIR}-results`,
  fullyParallel: false,
  workers: 1,
  // One retry in CI: a flaky browser test is reported as such instead of sinking a whole run.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: E2E_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // A fresh embedded database each run, seeded with the test users, then the real server.
    command: `rm -rf ${E2E_DIR} && mkdir -p ${E2E_DIR} && node --import tsx e2e/fixtures/seed.ts && exec node apps/server/dist/main.js > ${E2E_DIR}/server.log 2>&1`,
    url: `${E2E_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: `${E2E_DIR}/data`,
      PUBLIC_URL: E2E_URL,
      ROTA_ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      SMTP_URL: '',
      // The alert tests' webhook receiver listens on this host, as an on-premises one would.
      ALERT_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
    },
  },
});
