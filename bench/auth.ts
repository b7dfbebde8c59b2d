/**
 * Measures what every console request pays: authenticating the bearer token (one query that
 * joins session, user, membership and profile) and answering `me`; and a sign-in (scrypt).
 * Real HTTP on loopback against the real app, on PGlite and, when DATABASE_URL is set, PostgreSQL.
 *
 *   node --import tsx bench/auth.ts            # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/auth.ts
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PASSWORD = 'bench-password-1';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function run(label: string, count: number, concurrency: number, once: () => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t0 = performance.now();
        await once();
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} n=${count} c=${concurrency}  ${(count / elapsed).toFixed(0).padStart(5)} req/s  p50 ${percentile(times, 50).toFixed(2)} ms  p99 ${percentile(times, 99).toFixed(2)} ms`,
  );
}

const { database, label, drop } = await openBenchDatabase();
await database.migrate();
await seedDatabase(database.db, {
  adminAccess: 'admin',
  adminEmail: 'admin@localhost',
  adminPassword: PASSWORD,
});
const app = await buildApp({
  config: {
    publicUrl: 'http://127.0.0.1',
    SMTP_URL: undefined,
    MAIL_FROM: 'x <x@x>',
    TRUST_PROXY: false,
  },
  db: database.db,
  webRoot: null,
  secretBox: new SecretBox(randomBytes(32)),
  dataDir: os.tmpdir(),
  events: database.events,
  // Requests only: no scheduler ticks in the figures.
  engine: { loop: false },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const post = (path: string, body: unknown, token?: string) =>
  fetch(`${address}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });

const signIn = await post('/api/user/api/auth/v1/session', { access: 'admin', password: PASSWORD });
const { token } = (await signIn.json()) as { token: string };

console.log(`${label}; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}`);
// Warm-up, then the measured runs.
await run(
  'warm-up (me)',
  300,
  CONCURRENCY,
  async () => void (await post('/api/user/api/auth/v1/me', {}, token)).arrayBuffer(),
);
await run('POST me (authenticated)', REQUESTS, CONCURRENCY, async () => {
  const res = await post('/api/user/api/auth/v1/me', {}, token);
  if (res.status !== 200) throw new Error(`me answered ${res.status}`);
  await res.arrayBuffer();
});
await run('POST profile index (permission+scope)', REQUESTS, CONCURRENCY, async () => {
  const res = await post('/api/user/profile/api/v1/index', {}, token);
  if (res.status !== 200) throw new Error(`index answered ${res.status}`);
  await res.arrayBuffer();
});
await run('POST session (scrypt sign-in)', 100, 2, async () => {
  const res = await post('/api/user/api/auth/v1/session', { access: 'admin', password: PASSWORD });
  if (res.status !== 200) throw new Error(`session answered ${res.status}`);
  await res.arrayBuffer();
});

await app.close();
await database.close();
await drop?.();
