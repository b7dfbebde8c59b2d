import path from 'node:path';
import { ConfigError, loadConfig } from './config/env.js';
import { resolveSecretKey } from './config/secret-key.js';
import { markServerRunning } from './db/backup/server-lock.js';
import { openDatabase } from './db/client.js';
import { seedDatabase, type SeedResult } from './db/seed.js';
import { VERSION_LABEL } from '@rota/contract';
import { buildApp } from './http/app.js';
import { dispatchTimingsFor } from './modules/dispatch/dispatch-service.js';
import { tuneHeap } from './lib/heap-tuning.js';
import { startTelemetry } from './lib/telemetry.js';
import { SecretBox } from './lib/secret-box.js';
import { SERVER_ROOT } from './lib/server-root.js';
import { discoverOidc, OidcDiscoveryError, oidcSettingsOf } from './modules/oidc/oidc-client.js';

const WEB_ROOT = path.join(SERVER_ROOT, '../web/dist');
const SHUTDOWN_GRACE_MS = 10_000;
/**
 * Connections waiting to be accepted. Node's default (511) overflows when thousands of agents
 * connect at once (every agent after a restart): the kernel drops their SYNs and they retry after
 * 1, 3, 7 s. The kernel caps it at net.core.somaxconn (4096 on current Linux).
 */
const LISTEN_BACKLOG = 4096;

function printAdminCredentials(seed: SeedResult) {
  const lines = [
    'Rota: first start. Sign in as the administrator:',
    `  access:   ${seed.access}`,
    `  email:    ${seed.email}`,
    seed.generatedPassword
      ? `  password: ${seed.generatedPassword}   (shown only now; you will be asked to change it)`
      : '  password: the value of ROTA_ADMIN_PASSWORD',
  ];
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const bar = '='.repeat(width);
  process.stdout.write(`\n${bar}\n${lines.join('\n')}\n${bar}\n\n`);
}

async function main() {
  tuneHeap();
  const config = loadConfig();
  // Loaded only when a collector is configured (OTEL_EXPORTER_OTLP_ENDPOINT).
  const telemetry = await startTelemetry(VERSION_LABEL);
  const dataDir = path.resolve(config.DATA_DIR);
  // Created now so a missing or unwritable DATA_DIR fails at boot, not at the first secret.
  const secretBox = new SecretBox(await resolveSecretKey(config.ROTA_SECRET_KEY, dataDir));
  // Single sign-on's provider is found now: a wrong OIDC_ISSUER stops the boot.
  const oidcSettings = oidcSettingsOf(config);
  const oidc = oidcSettings ? await discoverOidc(oidcSettings) : null;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir,
    keyFingerprint: secretBox.fingerprint(),
    onBackup: (file) =>
      process.stdout.write(`Rota: backed up the embedded database before migrating it: ${file}\n`),
  });
  // The offline backup must not open an embedded database this process holds.
  const released =
    database.kind === 'pglite' ? await markServerRunning(dataDir, config.publicUrl) : null;
  let seeded: SeedResult | null = null;
  await database.migrate(async () => {
    seeded = await seedDatabase(database.db, {
      adminAccess: config.ROTA_ADMIN_ACCESS,
      adminEmail: config.ROTA_ADMIN_EMAIL,
      adminPassword: config.ROTA_ADMIN_PASSWORD,
    });
  });

  const app = await buildApp({
    config,
    db: database.db,
    logDb: database.logDb,
    webRoot: WEB_ROOT,
    secretBox,
    dataDir,
    events: database.events,
    oidc,
    engine: { timings: dispatchTimingsFor(config.ROTA_LEASE_SECONDS) },
    logRequests: config.LOG_REQUESTS,
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      ...(process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } }
        : {}),
    },
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    void app
      .close()
      .then(() => database.close())
      .then(() => telemetry?.shutdown())
      .then(() => released?.())
      .then(() => {
        clearTimeout(force);
        process.exit(0);
      });
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST, backlog: LISTEN_BACKLOG });
  app.log.info({ database: database.kind, dataDir, publicUrl: config.publicUrl }, 'Rota is ready');
  if (seeded) printAdminCredentials(seeded);
  process.stdout.write(`Rota ${VERSION_LABEL} is running at ${config.publicUrl}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof OidcDiscoveryError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Rota could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
