/**
 * The retention figures: how long the nightly pruning takes to delete 1,000,000 log
 * lines (with their executions and attempts), and how much it moves the claim latency of agents
 * that keep claiming and finishing runs meanwhile (p50/p99 of the claim request, without and
 * with the pruning running).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/retention.ts
 *
 * BENCH_EXECUTIONS (10000) old executions of BENCH_LINES (100) log lines each; BENCH_WORKERS (8)
 * agents; BENCH_SECONDS (10) of claims without pruning. PGlite works too, but is one connection:
 * the agents would simply wait for the pruning, which says nothing about locks.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { keepAlivePost } from './keep-alive-post.js';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { generateToken, hashToken } from '../apps/server/src/lib/tokens.js';

const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 10_000);
const LINES = Number(process.env.BENCH_LINES ?? 100);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

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
  sql`insert into rota_robots (rota_clients_id, name, executor) values (${clientId}, 'Bench robot', 'node main.js') returning rota_robots_id as id`,
);
const [vm] = await rows<{ id: number }>(
  sql`insert into rota_vms (rota_clients_id, name, hostname) values (${clientId}, 'Bench VM', 'bench.lan') returning rota_vms_id as id`,
);
const tokens = Array.from({ length: WORKERS }, () => generateToken());
for (const [i, token] of tokens.entries()) {
  await db.execute(
    sql`insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash)
        values (${clientId}, ${`Bench agent ${i}`}, ${vm!.id}, ${hashToken(token)})`,
  );
}

// Old runs: ended 200 days ago (the default keeps 90), each with an attempt and LINES lines.
const seedStarted = performance.now();
for (let done = 0; done < EXECUTIONS; done += 1000) {
  const n = Math.min(1000, EXECUTIONS - done);
  await db.execute(
    sql`with runs as (
          insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds,
            status, attempts, queued_at, started_at, ended_at)
          select ${clientId}, ${robot!.id}, 'manual', 50, 300, 'success', 1,
                 now() - interval '200 days', now() - interval '200 days', now() - interval '200 days'
            from generate_series(1, ${n})
          returning rota_executions_id),
        attempts as (
          insert into rota_execution_attempts (rota_clients_id, rota_executions_id, attempt, status, started_at, ended_at)
          select ${clientId}, rota_executions_id, 1, 'success', now() - interval '200 days', now() - interval '200 days'
            from runs)
        insert into rota_execution_logs (rota_clients_id, rota_executions_id, attempt, seq, stream, line, at)
        select ${clientId}, rota_executions_id, 1, s, 'stdout', 'bench line ' || s || ' of a robot that talks a lot',
               now() - interval '200 days'
          from runs, generate_series(1, ${LINES}) s`,
  );
}
await db.execute(sql`analyze`);
const seedSeconds = (performance.now() - seedStarted) / 1000;

// Plenty of queued work for the agents (never drained during the bench).
const QUEUED = 200_000;
await db.execute(
  sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
      select ${clientId}, ${robot!.id}, 'manual', 50, 300 from generate_series(1, ${QUEUED})`,
);

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
  engine: { loop: false },
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const AGENT = `${address}/api/rota/agent/api/v1`;
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 64 });

const post = (url: string, token: string, body: object) =>
  keepAlivePost(keepAlive, url, token, body);

type Run = { execution_id: number; attempt: number } | null;

/** Agents claiming and finishing until `until()` says stop; the claim round trips, in ms. */
async function agents(until: () => boolean) {
  const claims: number[] = [];
  let finished = 0;
  await Promise.all(
    tokens.map(async (token) => {
      while (!until()) {
        const started = performance.now();
        const run = (await post(`${AGENT}/claim`, token, { wait_seconds: 0 })) as Run;
        claims.push(performance.now() - started);
        if (!run) continue;
        await post(`${AGENT}/finish`, token, {
          execution_id: run.execution_id,
          attempt: run.attempt,
          status: 'success',
          exit_code: 0,
          message: null,
        });
        finished += 1;
      }
    }),
  );
  return { claims: claims.sort((a, b) => a - b), finished };
}

// 1. Without pruning.
const quietEnd = performance.now() + SECONDS * 1000;
const quietStarted = performance.now();
const quiet = await agents(() => performance.now() >= quietEnd);
const quietSeconds = (performance.now() - quietStarted) / 1000;

// 2. With the pruning running (the agents stop when it ends).
let pruning = true;
const pruneStarted = performance.now();
const busyRun = agents(() => !pruning);
const report = await app.retention.prune();
const pruneSeconds = (performance.now() - pruneStarted) / 1000;
pruning = false;
const busy = await busyRun;

const [left] = await rows<{ lines: number; old: number }>(
  sql`select (select count(*)::int from rota_execution_logs) as lines,
             (select count(*)::int from rota_executions where ended_at < now() - interval '90 days') as old`,
);

console.log(
  `${label}; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  `seeded ${EXECUTIONS} old executions × ${LINES} lines = ${EXECUTIONS * LINES} log lines in ${seedSeconds.toFixed(1)} s; ${QUEUED} queued runs`,
);
console.log('| measure | figure |');
console.log('|---|---|');
console.log(
  `| pruning ${report.executions} executions (${EXECUTIONS * LINES} log lines, ${report.executions} attempts), 500 per statement | ${pruneSeconds.toFixed(1)} s; left: ${left!.lines} log lines, ${left!.old} old executions |`,
);
console.log(
  `| claim round trip, ${WORKERS} agents claim + finish, no pruning (${quietSeconds.toFixed(0)} s) | p50 ${percentile(quiet.claims, 50).toFixed(1)} ms, p99 ${percentile(quiet.claims, 99).toFixed(1)} ms; ${(quiet.finished / quietSeconds).toFixed(0)} runs/s |`,
);
console.log(
  `| claim round trip, same agents while pruning (${pruneSeconds.toFixed(0)} s) | p50 ${percentile(busy.claims, 50).toFixed(1)} ms, p99 ${percentile(busy.claims, 99).toFixed(1)} ms; ${(busy.finished / pruneSeconds).toFixed(0)} runs/s |`,
);

await app.close();
await database.close();
await drop?.();
