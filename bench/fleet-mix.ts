/**
 * The sizing load of an unattended fleet on two cores: N robots, each running on its own agent
 * and doing per minute what UiPath's sizing guide counts for one unattended robot — 40 log lines,
 * 6 asset (parameter) reads, 6 queue-item adds, 6 queue-item gets with their finishes — plus the
 * agent's own heartbeat every 10 s (the guide counts 2 a minute; a Rota lease lasts 30 s, so its
 * agents beat 6 times). Against the built server (`npm start`'s process) on PostgreSQL, with the
 * load from a separate process (bench/fleet-mix-load.ts); N grows in steps, each measured after a
 * warm-up. A step passes when every call's p99 is under 100 ms and no call failed.
 *
 *   npm run build -w @rota/server
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/fleet-mix.ts
 *
 * BENCH_STEPS (500,1000,1500,2000,2500,3000), BENCH_SECONDS (30 measured a step),
 * BENCH_WARMUP_SECONDS (10), BENCH_SOCKETS (512 kept-alive connections), BENCH_REPEAT (1).
 * BENCH_ASYNC_COMMIT=1 turns synchronous_commit off for the scratch database: a diagnostic of
 * how much of the limit is waiting for the WAL's fsync, not a setting Rota recommends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../apps/server/src/db/client.js';
import { seedFleet } from './seed-fleet.js';
import { startProductionServer } from './production-server.js';
import { createScratchDatabase } from './scratch-database.js';
import { loadAverage, PostgresCpuMeter, processCpuMs } from './process-cpu.js';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
if (!SERVER_URL) throw new Error('BENCH_DATABASE_URL (a PostgreSQL server) is required');
const STEPS = (process.env.BENCH_STEPS ?? '500,1000,1500,2000,2500,3000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 512);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 1);
const PASSWORD = 'bench-password-1';
const PARAMETERS = 6;
const ASYNC_COMMIT = process.env.BENCH_ASYNC_COMMIT === '1';

async function api(address: string, token: string | null, path: string, body: object) {
  const res = await fetch(`${address}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { token?: string; data?: { key?: string } };
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

interface Step {
  n: number;
  callsPerSecond: number;
  ops: Record<string, { calls: number; errors: number; p50: number; p99: number; max: number }>;
  firstError: string | null;
  loaderLagP99: number;
  loaderCpuPercent: number;
  serverCpuPercent: number;
  postgresCpuPercent: number;
  load: string;
}

async function sitting(): Promise<Step[]> {
  const maxN = Math.max(...STEPS);
  const scratch = await createScratchDatabase(SERVER_URL!, 'rota_fleet_mix');
  try {
    const database = await openPostgres(scratch.url, 4);
    const { tokens } = await seedFleet(database, { agents: maxN, name: 'Fleet' });
    const [client] = (
      (await database.db.execute(
        sql`select rota_clients_id as id from rota_clients order by rota_clients_id limit 1`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    // One robot per agent; long limits so no run ends or stalls inside the sitting.
    await database.db.execute(
      sql`insert into rota_robots (rota_clients_id, name, executor, stall_minutes)
          select ${client!.id}, 'Fleet robot ' || i, 'node main.js', 600
          from generate_series(1, ${maxN}) as i`,
    );
    const robotIds = (
      (await database.db.execute(
        sql`select rota_robots_id as id from rota_robots where name like 'Fleet robot %' order by 1`,
      )) as unknown as { rows: { id: number }[] }
    ).rows.map((r) => r.id);
    if (ASYNC_COMMIT)
      await database.db.execute(
        sql.raw(`alter database ${scratch.name} set synchronous_commit = off`),
      );
    await database.close();

    const server = await startProductionServer(scratch.url);
    try {
      const { token: admin = '' } = await api(
        server.address,
        null,
        '/api/user/api/auth/v1/session',
        {
          access: 'admin',
          password: PASSWORD,
        },
      );
      const { data: key } = await api(server.address, admin, '/api/user/apikey/api/v1/create', {
        name: 'Fleet queue producer',
      });
      for (let i = 1; i <= PARAMETERS; i += 1)
        await api(server.address, admin, '/api/rota/parameter/api/v1/create', {
          name: `FLEET_PARAM_${i}`,
          value: `value ${i}`,
        });
      // Every robot queued once (Run now, as an operator would), with a few items waiting.
      for (let i = 0; i < robotIds.length; i += 50)
        await Promise.all(
          robotIds
            .slice(i, i + 50)
            .map((id) => api(server.address, admin, '/api/rota/robot/api/v1/run', { id })),
        );
      const seed = await openPostgres(scratch.url, 2);
      await seed.db.execute(
        sql`insert into rota_tasks (rota_clients_id, rota_robots_id, label, data, status, priority, expiration_date)
            select ${client!.id}, r.rota_robots_id, 'Seed item ' || i, '{}'::jsonb, 'pending', 50, now() + interval '30 days'
            from rota_robots r, generate_series(1, 5) as i where r.name like 'Fleet robot %'`,
      );
      await seed.close();

      const jobFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'rota-fleet-mix-')), 'job.json');
      writeFileSync(
        jobFile,
        JSON.stringify({
          address: server.address,
          tokens,
          apiKey: key!.key,
          steps: STEPS,
          warmupSeconds: WARMUP,
          seconds: SECONDS,
          sockets: SOCKETS,
        }),
      );
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(new URL('./fleet-mix-load.ts', import.meta.url)),
          jobFile,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const steps: Step[] = [];
      let serverCpu = 0;
      let pgMeter: PostgresCpuMeter | null = null;
      let sampler: NodeJS.Timeout | null = null;
      let started = 0;
      for await (const line of createInterface({ input: child.stdout! })) {
        const message = JSON.parse(line) as { event: string } & Omit<Step, 'serverCpuPercent'>;
        if (message.event === 'window') {
          serverCpu = processCpuMs(server.pid) ?? 0;
          pgMeter = new PostgresCpuMeter(scratch.name);
          sampler = setInterval(() => pgMeter?.sample(), 250);
          started = performance.now();
        } else if (message.event === 'stats') {
          const wall = performance.now() - started;
          clearInterval(sampler!);
          const { event: _event, ...stats } = message;
          steps.push({
            ...stats,
            serverCpuPercent: (((processCpuMs(server.pid) ?? 0) - serverCpu) / wall) * 100,
            postgresCpuPercent: (pgMeter!.elapsedMs() / wall) * 100,
            load: loadAverage(),
          });
          report(steps.at(-1)!);
        }
      }
      const code = await new Promise((resolve) =>
        child.exitCode === null ? child.on('close', resolve) : resolve(child.exitCode),
      );
      if (code !== 0) throw new Error(`the load process exited with ${code}`);
      return steps;
    } finally {
      await server.stop();
    }
  } finally {
    await scratch.drop();
  }
}

const passes = (step: Step) =>
  Object.values(step.ops).every((op) => op.errors === 0 && (op.p99 ?? 0) < 100);

function report(step: Step) {
  const ops = Object.entries(step.ops)
    .map(
      ([op, s]) =>
        `${op} p99 ${s.p99 == null ? '—' : s.p99.toFixed(1)}${s.errors ? ` (${s.errors} errors)` : ''}`,
    )
    .join(', ');
  console.log(
    `N ${step.n}: ${step.callsPerSecond.toFixed(0)} calls/s, ${passes(step) ? 'PASS' : 'FAIL'}; ${ops}; ` +
      `server ${step.serverCpuPercent.toFixed(0)} %, PostgreSQL ${step.postgresCpuPercent.toFixed(0)} %, ` +
      `loader ${step.loaderCpuPercent.toFixed(0)} % (lag p99 ${step.loaderLagP99.toFixed(1)} ms), load ${step.load}` +
      (step.firstError ? `\n  first error: ${step.firstError}` : ''),
  );
}

const sittings: Step[][] = [];
for (let r = 0; r < REPEAT; r += 1) {
  console.log(
    `--- sitting ${r + 1} of ${REPEAT}${ASYNC_COMMIT ? ' (synchronous_commit off)' : ''}`,
  );
  sittings.push(await sitting());
}
for (const [i, steps] of sittings.entries()) {
  const largest = steps.filter(passes).at(-1)?.n ?? 0;
  console.log(`sitting ${i + 1}: largest N with every p99 < 100 ms and no error: ${largest}`);
}
if (process.argv.includes('--json')) console.log(JSON.stringify(sittings));
