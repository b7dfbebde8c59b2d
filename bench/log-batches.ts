/**
 * The log-batch hot path: a batch for a run's current attempt now also moves the run's
 * `last_activity_at` and clears `stalled`, in the statement that already read the run (a CTE
 * update instead of a plain select). Measured against the previous path (that select, then the
 * same insert of the lines) in one process, interleaved rounds, WORKERS agents' runs sending
 * batches of LINES lines at once; the batch's service call, no HTTP.
 *
 *   node --import tsx bench/log-batches.ts                                        # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/log-batches.ts
 *
 * BENCH_WORKERS (8), BENCH_BATCHES (500 per worker and round), BENCH_LINES (20), BENCH_ROUNDS (3).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { rotaExecutions } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { insertLogLines } from '../apps/server/src/modules/executions/run-statements.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';

const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 500);
const LINES = Number(process.env.BENCH_LINES ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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
  sql`insert into rota_robots (rota_clients_id, name, executor, stall_minutes)
      values (${clientId}, 'Bench robot', 'node main.js', 30) returning rota_robots_id as id`,
);
const [vm] = await rows<{ id: number }>(
  sql`insert into rota_vms (rota_clients_id, name, hostname) values (${clientId}, 'Bench VM', 'bench.lan') returning rota_vms_id as id`,
);
const [node] = await rows<{ id: number }>(
  sql`insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash)
      values (${clientId}, 'Bench agent', ${vm!.id}, ${randomBytes(16).toString('hex')})
      returning rota_nodes_id as id`,
);
const agent = {
  rota_clients_id: clientId,
  rota_nodes_id: node!.id,
  rota_vms_id: vm!.id,
  name: 'Bench agent',
};
const runIds: number[] = [];
for (let i = 0; i < WORKERS; i += 1) {
  const [run] = await rows<{ id: number }>(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, rota_nodes_id, rota_vms_id, status, trigger, priority, timeout_seconds, started_at, attempts)
        values (${clientId}, ${robot!.id}, ${node!.id}, ${vm!.id}, 'processing', 'manual', 50, 3600, now(), 1)
        returning rota_executions_id as id`,
  );
  runIds.push(run!.id);
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
  engine: { loop: false },
});
const dispatch = app.services.dispatch;

let seq = 0;
const batchOf = (executionId: number) => ({
  execution_id: executionId,
  attempt: 1,
  lines: Array.from({ length: LINES }, () => ({
    seq: ++seq,
    stream: 'stdout' as const,
    line: `bench line ${seq} of a robot that keeps talking`,
    at: new Date().toISOString(),
  })),
});

/** The path before the attempt-aware batches: read the run (a select), store the lines. */
async function previousPath(batch: ReturnType<typeof batchOf>) {
  const E = rotaExecutions;
  const [execution] = await db
    .select({
      rota_nodes_id: E.rota_nodes_id,
      rota_robots_id: E.rota_robots_id,
      status: E.status,
      attempts: E.attempts,
      cancel: sql<boolean>`${E.cancel_requested_at} is not null`,
    })
    .from(E)
    .where(and(eq(E.rota_executions_id, batch.execution_id), eq(E.rota_clients_id, clientId)));
  if (!execution) throw new Error('no run');
  await insertLogLines(
    db,
    batch.lines.map((l) => ({
      rota_clients_id: clientId,
      rota_executions_id: batch.execution_id,
      attempt: batch.attempt,
      seq: l.seq,
      stream: l.stream,
      line: l.line,
      at: new Date(l.at),
    })),
  );
}

async function measure(send: (batch: ReturnType<typeof batchOf>) => Promise<unknown>) {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    runIds.map(async (id) => {
      for (let i = 0; i < BATCHES; i += 1) {
        const batch = batchOf(id);
        const t0 = performance.now();
        await send(batch);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: Math.round((WORKERS * BATCHES) / seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const results: Record<'before' | 'after', { perSecond: number; p50: number; p99: number }[]> = {
  before: [],
  after: [],
};
// A warm-up of each, then interleaved rounds.
await measure(previousPath);
await measure((batch) => dispatch.logs(agent, batch));
for (let round = 0; round < ROUNDS; round += 1) {
  results.before.push(await measure(previousPath));
  results.after.push(await measure((batch) => dispatch.logs(agent, batch)));
}
const [check] = await rows<{ active: boolean }>(
  sql`select bool_and(last_activity_at is not null) as active from rota_executions where rota_executions_id = any(${`{${runIds.join(',')}}`}::integer[])`,
);

const fmt = (list: { perSecond: number; p50: number; p99: number }[]) => ({
  'batches/s': list.map((r) => r.perSecond).join(' / '),
  'p50 ms': list.map((r) => r.p50.toFixed(2)).join(' / '),
  'p99 ms': list.map((r) => r.p99.toFixed(2)).join(' / '),
});
console.log(
  JSON.stringify(
    {
      database: label,
      workers: WORKERS,
      batches: BATCHES,
      lines: LINES,
      before: fmt(results.before),
      after: fmt(results.after),
      activity_recorded: check?.active,
    },
    null,
    2,
  ),
);

await app.close();
await database.close();
await drop?.();
