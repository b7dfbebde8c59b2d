/**
 * The list figures: seeds 100,000 rows in every operations table of one client, then
 * times list calls over real HTTP, one at a time (latency, not throughput): a page of 20 with
 * its total, a search, and a filter, for each resource.
 *
 *   node --import tsx bench/lists.ts                                       # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/lists.ts
 *
 * BENCH_ROWS (100000) and BENCH_CALLS (200 per case) change the size. BENCH_USERS (1): more
 * users click at once, BENCH_CALLS rounds of them, BENCH_PAUSE_MS (50) between rounds.
 * BENCH_SEEDED_URL: a database this bench seeded before, kept (BENCH_KEEP=1), to measure another
 * build against the same rows without seeding again.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { openPostgres } from '../apps/server/src/db/client.js';
import { openBenchDatabase } from './bench-database.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { seedOperationsDatabase } from './seed-operations.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const USERS = Number(process.env.BENCH_USERS ?? 1);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 50);
const SEEDED = process.env.BENCH_SEEDED_URL;
const PASSWORD = 'bench-password-1';

const CASES: { resource: string; base: string; bodies: Record<string, object> }[] = [
  {
    resource: 'robots',
    base: '/api/rota/robot/api/v1',
    bodies: { page: {}, search: { search: '4242' }, filter: { active: false } },
  },
  {
    resource: 'robot fields',
    base: '/api/rota/robot/field/api/v1',
    bodies: { page: {}, search: { search: 'field_777' }, filter: { rota_robots_id: 500 } },
  },
  {
    resource: 'robot versions',
    base: '/api/rota/robot/version/api/v1',
    bodies: {
      page: { rota_robots_id: 1234 },
      search: { rota_robots_id: 1234, search: '1.0' },
      filter: { rota_robots_id: 99, sort: 'version' },
    },
  },
  {
    resource: 'tasks',
    base: '/api/rota/task/api/v1',
    bodies: { page: {}, search: { search: 'Task 5555' }, filter: { status: 'business_error' } },
  },
  {
    resource: 'VMs',
    base: '/api/rota/vm/api/v1',
    bodies: {
      page: {},
      search: { search: 'vm-9876' },
      filter: { sort: 'hostname', order: 'desc' },
    },
  },
  {
    resource: 'agents',
    base: '/api/rota/node/api/v1',
    bodies: { page: {}, search: { search: 'Agent 31337' }, filter: { connectivity: 'active' } },
  },
  {
    resource: 'schedulings',
    base: '/api/rota/scheduling/api/v1',
    bodies: { page: {}, search: { search: 'Scheduling 1234' }, filter: { deleted: 'deleted' } },
  },
  {
    resource: 'parameters',
    base: '/api/rota/parameter/api/v1',
    bodies: {
      page: {},
      search: { search: 'PARAM_4242' },
      filter: { sort: 'updated_at', order: 'desc' },
    },
  },
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const opened = SEEDED
  ? { database: await openPostgres(SEEDED, 10), label: 'PostgreSQL 15 (pg pool of 10)' }
  : await openBenchDatabase();
const { database, label } = opened;
const seedStart = performance.now();
if (!SEEDED) await seedOperationsDatabase(database, ROWS, PASSWORD);
const seedSeconds = (performance.now() - seedStart) / 1000;

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
  // Lists only: no scheduler ticks in the figures.
  engine: { loop: false },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(`${address}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { token?: string; meta?: { total: number } };
  if (res.status !== 200)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
};
const { token } = await post('/api/user/api/auth/v1/session', {
  access: 'admin',
  password: PASSWORD,
});

// The calls come from a separate process (bench/list-client.ts), so the figures are the
// server's latency, not the load generator's share of the same event loop.
const jobs = CASES.flatMap(({ resource, base, bodies }) =>
  Object.entries(bodies).map(([kind, body]) => ({ resource, base, kind, body })),
);
const loadProcess = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    fileURLToPath(new URL('./list-client.ts', import.meta.url)),
    JSON.stringify({ address, token, calls: CALLS, users: USERS, pauseMs: PAUSE_MS, cases: jobs }),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let output = '';
loadProcess.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
const exitCode = await new Promise<number | null>((resolve) => loadProcess.on('close', resolve));
if (exitCode !== 0) throw new Error(`the load process failed (${exitCode})`);

console.log(
  `${label}; ${SEEDED ? 'the rows seeded before' : `${ROWS} rows a table (seeded in ${seedSeconds.toFixed(1)} s)`}; ${USERS > 1 ? `${CALLS} rounds of ${USERS} users clicking at once` : `${CALLS} calls a case, one at a time`}, from a separate process`,
);
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log('| resource | case | total | p50 ms | p99 ms |');
console.log('|---|---|---|---|---|');
let worstP99 = 0;
for (const line of output.trim().split('\n')) {
  const { resource, kind, total, times } = JSON.parse(line) as {
    resource: string;
    kind: string;
    total: number;
    times: number[];
  };
  times.sort((a, b) => a - b);
  worstP99 = Math.max(worstP99, percentile(times, 99));
  console.log(
    `| ${resource} | ${kind} | ${total} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 99).toFixed(1)} |`,
  );
}
console.log(`worst p99: ${worstP99.toFixed(1)} ms`);
await app.close();
await database.close();
// A kept scratch database stays for BENCH_SEEDED_URL (drop it with `drop database … with (force)`).
if (process.env.BENCH_KEEP === '1' && 'url' in opened) console.log(`kept: ${opened.url}`);
else if ('drop' in opened) await opened.drop?.();
