/**
 * The /metrics scrape cost: how long GET /metrics takes to read its database gauges over
 * BENCH_EXECUTIONS (100000) executions, ended over the last 90 days (the default retention),
 * with BENCH_QUEUED (500) queued and BENCH_PROCESSING (50) processing, across 20 robots of 2
 * clients and 40 agents. Compares the statement /metrics runs (queued and processing through
 * their partial indexes, final statuses of the last 24 h) with a GROUP BY over the whole table.
 *
 *   node --import tsx bench/metrics.ts                                    # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/metrics.ts
 */
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { rowsOf } from '../apps/server/src/lib/sql-rows.js';
import { executionStatusCounts } from '../apps/server/src/modules/executions/statements.js';
import { agentCounts, queueDepths } from '../apps/server/src/modules/metrics/repository.js';
import {
  ENDED_WINDOW_SECONDS,
  MetricsService,
} from '../apps/server/src/modules/metrics/service.js';

const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 100_000);
const QUEUED = Number(process.env.BENCH_QUEUED ?? 500);
const PROCESSING = Number(process.env.BENCH_PROCESSING ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

const { database, label, drop } = await openBenchDatabase();
const { db } = database;
await database.migrate();
await seedDatabase(db, {
  adminAccess: 'admin',
  adminEmail: 'admin@localhost',
  adminPassword: 'bench-password-1',
});
const rows = <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(db, statement);

const [first] = await rows<{ id: number }>(
  sql`select rota_clients_id as id from rota_clients order by rota_clients_id limit 1`,
);
const [second] = await rows<{ id: number }>(
  sql`insert into rota_clients (name) values ('Bench second') returning rota_clients_id as id`,
);
const clients = [first!.id, second!.id];
for (const client of clients) {
  await db.execute(
    sql`insert into rota_robots (rota_clients_id, name, executor)
        select ${client}, 'Bench robot ' || s, 'node main.js' from generate_series(1, 10) s`,
  );
  const [vm] = await rows<{ id: number }>(
    sql`insert into rota_vms (rota_clients_id, name, hostname)
        values (${client}, 'Bench VM', 'bench.lan') returning rota_vms_id as id`,
  );
  // Half the agents seen a moment ago, half long gone.
  await db.execute(
    sql`insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash, last_seen_at, online)
        select ${client}, 'Bench agent ' || s, ${vm!.id}, md5(${client} || '-' || s),
               case when s % 2 = 0 then now() else now() - interval '1 day' end, s % 2 = 0
          from generate_series(1, 20) s`,
  );
}
const robots = await rows<{ id: number; client: number }>(
  sql`select rota_robots_id as id, rota_clients_id as client from rota_robots`,
);

const intArray = (xs: number[]) => sql.raw(`(array[${xs.map((x) => Math.trunc(x)).join(',')}])`);
const robotOf = intArray(robots.map((r) => r.id));
const clientOf = intArray(robots.map((r) => r.client));

const seedStarted = performance.now();
const statuses = sql`(array['success','success','success','application_error','business_error','timeout','cancelled'])[1 + s % 7]`;
for (let done = 0; done < EXECUTIONS; done += 10_000) {
  const n = Math.min(10_000, EXECUTIONS - done);
  // Ended evenly over the last 90 days; robot and client picked round-robin.
  await db.execute(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority,
          timeout_seconds, status, attempts, queued_at, started_at, ended_at)
        select ${clientOf}[1 + s % ${robots.length}::int], ${robotOf}[1 + s % ${robots.length}::int],
               'manual', 50, 300, ${statuses}, 1, t - interval '1 minute', t - interval '30 seconds', t
          from generate_series(${done + 1}::int, ${done + n}::int) s,
               lateral (select now() - make_interval(secs => s::float8 / ${EXECUTIONS}::float8 * 90 * 86400) as t) ts`,
  );
}
await db.execute(
  sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
      select ${robots[0]!.client}, ${robots[0]!.id}, 'manual', 50, 300 from generate_series(1, ${QUEUED}::int)`,
);
await db.execute(
  sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds,
        status, attempts, started_at, lease_expires_at)
      select ${robots[1]!.client}, ${robots[1]!.id}, 'manual', 50, 300, 'processing', 1, now(),
             now() + interval '30 seconds'
        from generate_series(1, ${PROCESSING}::int)`,
);
await db.execute(sql`analyze`);
const seedSeconds = (performance.now() - seedStarted) / 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(name: string, run: () => Promise<unknown>) {
  await run(); // warm: plans, caches
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return { name, median_ms: +median(ms).toFixed(2), max_ms: +Math.max(...ms).toFixed(2) };
}

const metrics = new MetricsService(db, { warn: (obj) => console.error(obj) });
const results = [
  await time('rota_executions (chosen: partial indexes + ended in 24 h)', () =>
    executionStatusCounts(db, ENDED_WINDOW_SECONDS),
  ),
  await time('rota_executions (alternative: GROUP BY over the whole table)', () =>
    rows(
      sql`select rota_clients_id as client, status, count(*)::int as n from rota_executions group by 1, 2`,
    ),
  ),
  await time('rota_queue_depth', () => queueDepths(db)),
  await time('rota_agents', () => agentCounts(db)),
  await time('whole scrape (MetricsService.scrape)', () => metrics.scrape()),
];
const scrape = await metrics.scrape();

console.log(
  JSON.stringify(
    {
      database: label,
      executions: EXECUTIONS + QUEUED + PROCESSING,
      seed_seconds: +seedSeconds.toFixed(1),
      runs: RUNS,
      results,
      scrape_bytes: scrape.body.length,
    },
    null,
    2,
  ),
);
await database.close();
await drop?.();
