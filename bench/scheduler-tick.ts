/**
 * The scheduler figure: the cost of the scheduler's duty (EngineLoop.queueDueSchedulings,
 * which the engine runs every second on each instance) with 10,000 active schedulings, cron and
 * interval mixed, a fifth of them on business calendars:
 *   - idle: nothing due (the common tick): ms per tick;
 *   - due: ~1,000 due at once (e.g. a 07:00 cron on many schedulings): ms to queue them all, in
 *     the engine's batches of 200, and ms per batch.
 *
 *   node --import tsx bench/scheduler-tick.ts                                        # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/scheduler-tick.ts
 *
 * BENCH_SCHEDULINGS (10000), BENCH_DUE (1000), BENCH_TICKS (200) change it.
 */
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { queueDueSchedulings } from '../apps/server/src/modules/scheduler/due-schedulings.js';

const SCHEDULINGS = Number(process.env.BENCH_SCHEDULINGS ?? 10000);
const DUE = Number(process.env.BENCH_DUE ?? 1000);
const TICKS = Number(process.env.BENCH_TICKS ?? 200);
const BATCH = 200; // EngineLoop's
const ROBOTS = 100;
const CALENDARS = 10;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms`;
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
const robots = await rows<{ id: number }>(
  sql`insert into rota_robots (rota_clients_id, name, executor)
      select ${clientId}, 'Bench robot ' || g, 'node main.js' from generate_series(1, ${ROBOTS}) g
      returning rota_robots_id as id`,
);
// Holidays and a few weekends of a year: ~30 days each.
const holidays = Array.from({ length: 30 }, (_, i) =>
  new Date(Date.UTC(2026, 0, 1 + i * 12)).toISOString().slice(0, 10),
);
const calendars = await rows<{ id: number }>(
  sql`insert into rota_calendars (rota_clients_id, name, time_zone, excluded_dates)
      select ${clientId}, 'Bench calendar ' || g, 'America/Sao_Paulo', ${`{${holidays.join(',')}}`}::text[]
        from generate_series(1, ${CALENDARS}) g
      returning rota_calendars_id as id`,
);

const CRONS = ['0 7 * * 1-5', '*/5 * * * *', '30 2 * * *', '0 */2 * * MON-FRI', '15 9,13,17 * * *'];
const ZONES = ['America/Sao_Paulo', 'America/New_York', 'UTC', 'Europe/Lisbon'];
const later = new Date(Date.now() + 86_400_000).toISOString();
const values = Array.from({ length: SCHEDULINGS }, (_, i) => {
  const cron = i % 2 === 0;
  return sql`(${clientId}, ${`Bench scheduling ${i}`}, ${robots[i % ROBOTS]!.id},
    ${cron ? 'cron' : 'interval'}, ${[5, 15, 60, 240][i % 4]!},
    ${cron ? CRONS[i % CRONS.length]! : null}, ${cron ? ZONES[i % ZONES.length]! : null},
    ${i % 3 === 0 ? 'skip' : 'run_once'}, ${i % 5 === 0 ? calendars[i % CALENDARS]!.id : null},
    10, ${later}::timestamptz)`;
});
for (let i = 0; i < values.length; i += 1000) {
  await db.execute(
    sql`insert into rota_schedulings (rota_clients_id, name, rota_robots_id, trigger_type,
          interval_minutes, cron, time_zone, missed_runs, rota_calendars_id, timeout_minutes,
          next_run_at) values ${sql.join(values.slice(i, i + 1000), sql`, `)}`,
  );
}
await db.execute(sql`analyze`);

// Warm up (plans, croner, Intl formats).
for (let i = 0; i < 20; i++) await queueDueSchedulings(db, new Date(), BATCH);

const idle: number[] = [];
for (let i = 0; i < TICKS; i++) {
  const started = performance.now();
  await queueDueSchedulings(db, new Date(), BATCH);
  idle.push(performance.now() - started);
}

const drains: number[] = [];
const batches: number[] = [];
let queued = 0;
for (let round = 0; round < 5; round++) {
  await db.execute(sql`delete from rota_executions`);
  // ~DUE schedulings due a second ago, a different set each round.
  await db.execute(
    sql`update rota_schedulings set next_run_at = now() - interval '1 second'
         where rota_schedulings_id in (select rota_schedulings_id from rota_schedulings
                                        where trigger_type <> 'queue' order by random() limit ${DUE})`,
  );
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    const runs = await queueDueSchedulings(db, new Date(), BATCH);
    const spent = performance.now() - t0;
    if (runs.length === 0) {
      const [left] = await rows<{ n: number }>(
        sql`select count(*)::int as n from rota_schedulings where next_run_at <= now() and active`,
      );
      if (!left || left.n === 0) break;
    }
    batches.push(spent);
    queued += runs.length;
  }
  drains.push(performance.now() - started);
}

console.log(
  `${label}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; ${new Date().toISOString()}`,
);
console.log(
  `${SCHEDULINGS} active schedulings (half cron in 4 zones, half interval; ${SCHEDULINGS / 5} on ${CALENDARS} calendars)`,
);
console.log(`idle tick (nothing due), ${TICKS} ticks: ${summary(idle)}`);
console.log(
  `${DUE} due at once, 5 rounds: drained in ${summary(drains)}; per batch of ${BATCH}: ${summary(batches)}; ${queued} runs queued (calendar days and skipped misses queue none)`,
);

await database.close();
await drop?.();
