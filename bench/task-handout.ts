/**
 * The task hand-out figures: one robot with 100,000 pending tasks (priorities 1–100,
 * three in four with a deadline in the next week, one in ten postponed an hour), and N
 * concurrent runs of it calling the real robot API over HTTP: `task/next`, then `task/finish`
 * (success), until the time is up. Reports tasks handed out per second and p50/p99 of
 * `task/next`.
 *
 *   node --import tsx bench/task-handout.ts      # PostgreSQL on DATABASE_URL, by default
 *                                                # postgres://postgres@127.0.0.1:5432/postgres
 *
 * The script creates a database of its own there and drops it at the end. BENCH_TASKS
 * (100000), BENCH_RUNS (8 concurrent runs), BENCH_SECONDS (20) change it; BENCH_EXPLAIN=1 prints
 * the plan of the hand-out query first. Not part of `npm test`.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { generateToken, hashToken } from '../apps/server/src/lib/tokens.js';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const TASKS = Number(process.env.BENCH_TASKS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RUN_API = '/api/rota/run/api/v1';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const { database, label, drop } = await openBenchDatabase();
const { db } = database;
await database.migrate();
await seedDatabase(db, {
  adminAccess: 'admin',
  adminEmail: 'admin@localhost',
  adminPassword: 'bench-password-1',
});
const rows = async <T>(statement: ReturnType<typeof sql>) =>
  ((await db.execute(statement)) as unknown as { rows: T[] }).rows;

const [client] = await rows<{ id: number }>(
  sql`select rota_clients_id as id from rota_clients order by rota_clients_id limit 1`,
);
const clientId = client!.id;
const [robot] = await rows<{ id: number }>(
  sql`insert into rota_robots (rota_clients_id, name, executor, task_risk_minutes)
      values (${clientId}, 'Bench robot', 'node main.js', 60) returning rota_robots_id as id`,
);
const robotId = robot!.id;

// The queue: varied priorities and deadlines, some postponed (not handed out yet).
const seedStart = performance.now();
await db.execute(
  sql`insert into rota_tasks (rota_clients_id, rota_robots_id, label, data, priority, expiration_date, deadline, postpone_until)
      select ${clientId}, ${robotId}, 'Bench task ' || i, jsonb_build_object('n', i),
             1 + (random() * 99)::int,
             now() + interval '30 days',
             case when random() < 0.75 then now() + random() * interval '7 days' end,
             case when random() < 0.1 then now() + interval '1 hour' end
        from generate_series(1, ${TASKS}) as i`,
);
await db.execute(sql`analyze rota_tasks`);
const seedSeconds = (performance.now() - seedStart) / 1000;

// N runs of the robot, each holding its run token, as a claim leaves them.
const tokens = Array.from({ length: RUNS }, () => generateToken());
for (const token of tokens) {
  await db.execute(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, status, trigger, priority, timeout_seconds, run_token_hash, started_at, attempts)
        values (${clientId}, ${robotId}, 'processing', 'manual', 50, 3600, ${hashToken(token)}, now(), 1)`,
  );
}

const app = await buildApp({
  config: {
    publicUrl: 'http://127.0.0.1',
    SMTP_URL: undefined,
    MAIL_FROM: 'x <x@x>',
    TRUST_PROXY: false,
  },
  db,
  webRoot: null,
  secretBox: new SecretBox(randomBytes(32)),
  dataDir: os.tmpdir(),
  events: database.events,
  // Only the robot API is measured: no scheduler nor reaper competing.
  engine: { loop: false },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });

async function call(token: string, path: string, body: unknown) {
  const response = await fetch(`${address}${RUN_API}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { data: { rota_tasks_id: number } | null };
}

if (process.env.BENCH_EXPLAIN) {
  const plan = await rows<{ 'QUERY PLAN': string }>(
    sql`explain analyze select rota_tasks_id from rota_tasks
         where rota_clients_id = ${clientId} and rota_robots_id = ${robotId} and status = 'pending'
           and expiration_date > now() and (postpone_until is null or postpone_until <= now())
         order by priority desc nulls last, deadline asc nulls last, created_at, rota_tasks_id
         limit 1 for update skip locked`,
  );
  console.log(plan.map((r) => r['QUERY PLAN']).join('\n'));
}

// The engine's SLA duty (every tick): the first pass announces what is already at risk, the
// next ones find nothing new among the open tasks: the steady cost of one tick.
const firstPass = performance.now();
const announced = await app.engine.announceTaskSla();
const firstMs = performance.now() - firstPass;
const steady: number[] = [];
for (let i = 0; i < 10; i += 1) {
  const t0 = performance.now();
  await app.engine.announceTaskSla();
  steady.push(performance.now() - t0);
}
steady.sort((a, b) => a - b);

const nextLatencies: number[] = [];
let handedOut = 0;
const until = performance.now() + SECONDS * 1000;
const started = performance.now();
await Promise.all(
  tokens.map(async (token) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const next = await call(token, '/task/next', {});
      nextLatencies.push(performance.now() - t0);
      if (!next.data) return;
      handedOut += 1;
      await call(token, '/task/finish', { id: next.data.rota_tasks_id, status: 'success' });
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
nextLatencies.sort((a, b) => a - b);

// The order held: no task was handed out while a due one of higher priority waited.
const [order] = await rows<{ skipped: number }>(
  sql`select count(*)::int as skipped from rota_tasks
       where rota_robots_id = ${robotId} and status = 'pending'
         and (postpone_until is null or postpone_until <= now())
         and priority > (select min(priority) from rota_tasks
                          where rota_robots_id = ${robotId} and status = 'success')`,
);

console.log(
  `${label}; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log('| measure | figure |');
console.log('|---|---|');
console.log(
  `| seeding ${TASKS} pending tasks (one insert … select) | ${seedSeconds.toFixed(1)} s |`,
);
console.log(
  `| hand-out: ${RUNS} concurrent runs, task/next + task/finish over HTTP for ${SECONDS} s | ${handedOut} tasks in ${seconds.toFixed(1)} s = ${(handedOut / seconds).toFixed(0)} tasks/s |`,
);
console.log(
  `| task/next latency (${nextLatencies.length} calls) | p50 ${percentile(nextLatencies, 50).toFixed(1)} ms, p99 ${percentile(nextLatencies, 99).toFixed(1)} ms |`,
);
console.log(`| due tasks of higher priority left behind | ${order!.skipped} |`);
console.log(
  `| SLA duty of an engine tick: first pass (${announced} announced) / later passes (p50 of 10) | ${firstMs.toFixed(1)} ms / ${percentile(steady, 50).toFixed(1)} ms |`,
);

await app.close();
await database.close();
await drop?.();
