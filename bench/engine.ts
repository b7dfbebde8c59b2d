/**
 * The engine figures, with simulated agents speaking the agent protocol over HTTP from a
 * separate process (bench/engine-agents.ts):
 *   - heartbeats: 1,000 agents each heartbeating every 10 s; the server's CPU over that time;
 *   - latency: 20 agents waiting in claim while runs arrive through "run now"; queued→claimed
 *     p50/p99 from the rows (started_at − queued_at, both the database's clock);
 *   - throughput: a queue of 5,000 executions drained by 20 agents (claim + finish each).
 *
 *   node --import tsx bench/engine.ts                                        # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/engine.ts
 *
 * BENCH_AGENTS (1000), BENCH_WORKERS (20), BENCH_RUNS (5000), BENCH_SECONDS (30) change it;
 * BENCH_PHASES (heartbeats,latency,throughput) picks phases, BENCH_VARIANTS (1,4,classic) the
 * throughput lines: slots per agent, or `classic` (separate claim and finish, one run each).
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { generateToken, hashToken } from '../apps/server/src/lib/tokens.js';

const AGENTS = Number(process.env.BENCH_AGENTS ?? 1000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PASSWORD = 'bench-password-1';
/** BENCH_PHASES=throughput (comma-separated) runs only those phases (a quick dispatch figure). */
const PHASES = new Set(
  (process.env.BENCH_PHASES ?? 'heartbeats,latency,throughput').split(',').map((p) => p.trim()),
);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const { database, label, drop } = await openBenchDatabase();
const { db } = database;
await database.migrate();
await seedDatabase(db, {
  adminAccess: 'admin',
  adminEmail: 'admin@localhost',
  adminPassword: PASSWORD,
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
const tokens = Array.from({ length: AGENTS }, () => generateToken());
for (let i = 0; i < tokens.length; i += 500) {
  const slice = tokens.slice(i, i + 500);
  await db.execute(
    sql`insert into rota_nodes (rota_clients_id, name, rota_vms_id, token_hash) values ${sql.join(
      slice.map(
        (token, j) => sql`(${clientId}, ${`Bench agent ${i + j}`}, ${vm!.id}, ${hashToken(token)})`,
      ),
      sql`, `,
    )}`,
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
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const signIn = await fetch(`${address}/api/user/api/auth/v1/session`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ access: 'admin', password: PASSWORD }),
});
const adminToken = ((await signIn.json()) as { token: string }).token;

async function phase(
  name: 'heartbeats' | 'latency' | 'throughput',
  agentTokens: string[],
  extra: { seconds?: number; runs?: number; slots?: number; classic?: boolean } = {},
) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(new URL('./engine-agents.ts', import.meta.url)),
      JSON.stringify({
        address,
        phase: name,
        tokens: agentTokens,
        adminToken,
        robotId: robot!.id,
        seconds: extra.seconds ?? SECONDS,
        runs: extra.runs ?? RUNS,
        slots: extra.slots ?? 1,
        classic: extra.classic ?? false,
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const cpu = process.cpuUsage(cpuStart);
  const wall = performance.now() - wallStart;
  if (code !== 0) throw new Error(`${name}: the agents process failed (${code})`);
  return {
    result: JSON.parse(output.trim()) as Record<string, number>,
    // Server CPU (this process: HTTP, engine, and PGlite when embedded) as % of one core.
    cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
  };
}

async function latencies() {
  const found = await rows<{ ms: number }>(
    sql`select extract(epoch from (started_at - queued_at)) * 1000 as ms
          from rota_executions where started_at is not null`,
  );
  return found.map((r) => Number(r.ms)).sort((a, b) => a - b);
}

// 1. Heartbeats of the whole fleet (nothing else running).
const beats = PHASES.has('heartbeats') ? await phase('heartbeats', tokens) : null;

// 2. Queued→claimed with agents waiting: runs arrive at RUNS_LATENCY / 10 s.
const latencyRuns = Math.min(500, RUNS);
const waiting = PHASES.has('latency')
  ? await phase('latency', tokens.slice(0, WORKERS), { seconds: 10, runs: latencyRuns })
  : null;
const waited = waiting ? await latencies() : [];

// 3. Throughput: the queue is full, the agents drain it. One line per variant: slots per agent
// (claim of up to the free slots, finish asking for the next run in the same request), and
// `classic` (one claim, then one finish, per run: what older agents do).
const VARIANTS = (process.env.BENCH_VARIANTS ?? '1,4,classic').split(',').map((v) => v.trim());
const drained: { variant: string; run: Awaited<ReturnType<typeof phase>> }[] = [];
for (const variant of VARIANTS) {
  await db.execute(sql`delete from rota_execution_attempts`);
  await db.execute(sql`delete from rota_executions`);
  await db.execute(
    sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
        select ${clientId}, ${robot!.id}, 'manual', 50, 300 from generate_series(1, ${RUNS})`,
  );
  // Announced, as every way into the queue does: the last phase's idle claims may have left the
  // queue known empty for up to a second.
  app.services.work.announceQueued(clientId, null, RUNS);
  await db.execute(sql`analyze rota_executions`);
  const classic = variant === 'classic';
  drained.push({
    variant,
    run: await phase('throughput', tokens.slice(0, WORKERS), {
      runs: RUNS,
      slots: classic ? 1 : Number(variant),
      classic,
    }),
  });
}

console.log(
  `${label}; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| measure | figure |');
console.log('|---|---|');
if (beats) {
  console.log(
    `| heartbeats: ${AGENTS} agents every 10 s for ${SECONDS} s | ${beats.result.sent} sent, ${beats.result.errors} errors; server CPU ${beats.cpuPercent.toFixed(1)} % of one core |`,
  );
}
if (waiting) {
  console.log(
    `| queued→claimed, ${WORKERS} agents waiting, ${latencyRuns} runs over 10 s | p50 ${percentile(waited, 50).toFixed(1)} ms, p99 ${percentile(waited, 99).toFixed(1)} ms; server CPU ${waiting.cpuPercent.toFixed(1)} % |`,
  );
}
for (const { variant, run } of drained) {
  const how =
    variant === 'classic'
      ? `${WORKERS} agents × 1 slot, claim then finish (older agents)`
      : `${WORKERS} agents × ${variant} slot${variant === '1' ? '' : 's'}, finish + next claim`;
  console.log(
    `| throughput: ${RUNS} queued, ${how} | ${run.result.finished} in ${run.result.seconds!.toFixed(1)} s = ${(run.result.finished! / run.result.seconds!).toFixed(0)} executions/s; server CPU ${run.cpuPercent.toFixed(1)} %, load generator ${run.result.clientCpuPercent!.toFixed(1)} % |`,
  );
}

await app.close();
await database.close();
await drop?.();
