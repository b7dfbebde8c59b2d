/**
 * The queue trigger figure: the cost of its periodic pass (QueueTrigger.checkAll, which
 * EngineLoop.tick runs every second on each instance) over every active `queue` scheduling:
 *   - empty: no task pending (queues idle): ms per pass;
 *   - full: 100,000 pending tasks, every scheduling already at max_concurrent (nothing to start,
 *     the steady state of busy queues): ms per pass;
 *   - start: the same tasks, no run yet: ms for the pass that queues every run.
 * The pass goes 200 schedulings at a time, each batch its own transaction, like QueueTrigger.
 *
 *   node --import tsx bench/queue-trigger.ts                                        # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/queue-trigger.ts
 *
 * BENCH_SCHEDULINGS (1000), BENCH_TASKS (100000), BENCH_PASSES (50) change it.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import type { Db } from '../apps/server/src/db/client.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { startQueueRuns } from '../apps/server/src/modules/executions/queue-run-statements.js';

const SCHEDULINGS = Number(process.env.BENCH_SCHEDULINGS ?? 1000);
const TASKS = Number(process.env.BENCH_TASKS ?? 100000);
const PASSES = Number(process.env.BENCH_PASSES ?? 50);
const BATCH = 200; // QueueTrigger's
const ROBOTS = 100;
const MAX_CONCURRENT = 3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`;
};

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
await db.execute(
  sql`insert into rota_robots (rota_clients_id, name, executor)
      select ${clientId}, 'Bench robot ' || g, 'node main.js' from generate_series(1, ${ROBOTS}) g`,
);
await db.execute(
  sql`insert into rota_schedulings (rota_clients_id, name, rota_robots_id, trigger_type,
        interval_minutes, timeout_minutes, min_pending, max_concurrent, next_run_at)
      select ${clientId}, 'Bench queue ' || g, r.rota_robots_id, 'queue', 60, 10, 1,
             ${MAX_CONCURRENT}, null
        from generate_series(1, ${SCHEDULINGS}) g
        join rota_robots r on r.name = 'Bench robot ' || (1 + g % ${ROBOTS})`,
);

/** One periodic pass, as QueueTrigger.check(null) runs it; answers the runs queued. */
async function pass(): Promise<number> {
  let queued = 0;
  for (let afterId = 0; ;) {
    const result = await db.transaction(async (tx) =>
      startQueueRuns(tx as unknown as Db, null, new Date(), { size: BATCH, afterId }),
    );
    queued += result.runs.length;
    if (result.locked < BATCH) return queued;
    afterId = result.lastId;
  }
}

async function timedPasses(n: number) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const queued = await pass();
    samples.push(performance.now() - started);
    if (queued !== 0) throw new Error(`a steady pass queued ${queued} runs`);
  }
  return samples;
}

await db.execute(sql`analyze`);
for (let i = 0; i < 5; i++) await pass();
const empty = await timedPasses(PASSES);

await db.execute(
  sql`insert into rota_tasks (rota_clients_id, rota_robots_id, expiration_date)
      select ${clientId}, r.rota_robots_id, now() + interval '30 days'
        from generate_series(1, ${TASKS}) g
        join rota_robots r on r.name = 'Bench robot ' || (1 + g % ${ROBOTS})`,
);
await db.execute(sql`analyze`);
const starts: number[] = [];
let started = 0;
for (let round = 0; round < 5; round++) {
  await db.execute(sql`delete from rota_executions`);
  const t0 = performance.now();
  started = await pass();
  starts.push(performance.now() - t0);
}
const full = await timedPasses(PASSES);

console.log(
  `${label}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; ${new Date().toISOString()}`,
);
console.log(
  `${SCHEDULINGS} active queue schedulings on ${ROBOTS} robots, max_concurrent ${MAX_CONCURRENT}`,
);
console.log(`pass with no task pending, ${PASSES} passes: ${summary(empty)}`);
console.log(
  `${TASKS} pending tasks, every scheduling at max_concurrent, ${PASSES} passes: ${summary(full)}`,
);
console.log(`pass that queues every run (${started} runs), 5 rounds: ${summary(starts)}`);

await database.close();
await drop?.();
