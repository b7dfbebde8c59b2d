/**
 * Real runs against spawning the robot directly: how much the agent adds to a robot that does
 * nothing (`node main.js`, one line out). Rota is the built server on PostgreSQL with real
 * agents; the yardstick spawns the same command line (`/bin/sh -c "node main.js"`) from this
 * process, in the same sitting, interleaved with the agents under test.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *   BENCH_AGENTS=before=/tmp/a,after=/tmp/b BENCH_SERVER=/tmp/a node --import tsx bench/real-runs.ts
 *
 * BENCH_AGENTS names checkouts whose `apps/agent/dist` are the contenders (built); BENCH_SERVER is
 * the checkout whose built server they all talk to. Per contender and repetition:
 * - throughput: BENCH_RUNS (200) runs queued, then 1 agent (and then 4 agents, concurrency 1
 *   each) started; runs/s from the first robot's process start to the last result recorded;
 * - latency, one run at a time with one idle agent on the stream (BENCH_SAMPLES, 15): Run now →
 *   the robot's process started (its `performance.timeOrigin`), and the robot's last line → the
 *   result recorded (a trigger in the scratch database stamps `clock_timestamp()`);
 * - CPU of the agent and everything it started, per run.
 * The yardstick measures the same: spawn → process started, last line → `close` seen (the floor:
 * nothing can know the result sooner), runs/s with 1 and 4 lanes, its children's CPU per run.
 * BENCH_REPS (3) repetitions, the order reversed every other one (A-B-B-A).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createScratchDatabase } from './scratch-database.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 15);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SERVER_ROOT = process.env.BENCH_SERVER ?? process.cwd();
const AGENTS = (process.env.BENCH_AGENTS ?? `current=${process.cwd()}`).split(',').map((entry) => {
  const at = entry.indexOf('=');
  return { name: entry.slice(0, at), root: entry.slice(at + 1) };
});
const PASSWORD = 'real-runs-admin-password';
const LANES = [1, 4];

/** The robot: one line out, its process start and the time of its last line kept in `times`. */
const ROBOT = `const fs = require('node:fs');
const last = performance.timeOrigin + performance.now();
console.log('done');
fs.appendFileSync('times', process.env.ROTA_EXECUTION_ID + ' ' + performance.timeOrigin + ' ' + last + '\\n');
`;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** utime + stime + the waited children's (cutime + cstime), ms. */
function treeCpuMs(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

interface Times {
  started: number;
  last: number;
}

async function readTimes(dir: string): Promise<Map<string, Times>> {
  const text = await readFile(path.join(dir, 'times'), 'utf8').catch(() => '');
  const out = new Map<string, Times>();
  for (const line of text.split('\n').filter(Boolean)) {
    const [id, started, last] = line.split(' ');
    out.set(id!, { started: Number(started), last: Number(last) });
  }
  return out;
}

interface Figures {
  runsPerSecond: Record<number, number>;
  cpuPerRunMs: Record<number, number>;
  startedMs: number[];
  recordedMs: number[];
}

const results = new Map<string, Figures[]>();
const keep = (name: string, figures: Figures) =>
  results.set(name, [...(results.get(name) ?? []), figures]);

async function main(): Promise<void> {
  const scratch = await createScratchDatabase(DATABASE_URL, 'spawn_bench');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rota-real-runs-'));
  const robotDir = path.join(dir, 'robot');
  await mkdir(robotDir);
  await writeFile(path.join(robotDir, 'main.js'), ROBOT);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [path.join(SERVER_ROOT, 'apps/server/dist/main.js')], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dir, 'server'),
      DATABASE_URL: scratch.url,
      ROTA_SECRET_KEY: randomBytes(32).toString('hex'),
      ROTA_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = new pg.Client({ connectionString: scratch.url });
  const running: ChildProcess[] = [];
  try {
    for (let i = 0; ; i += 1) {
      if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) break;
      if (i > 600) throw new Error('the server did not start');
      await sleep(100);
    }
    const api = async (route: string, body: unknown, token?: string) => {
      const res = await fetch(`${base}${route}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes
      const json = (await res.json().catch(() => null)) as any;
      if (!res.ok) throw new Error(`${route}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const token = (
      await api('/api/user/api/auth/v1/session', { access: 'admin', password: PASSWORD })
    ).token as string;
    const robotId = (
      await api(
        '/api/rota/robot/api/v1/create',
        { name: 'Bench robot', executor: 'node main.js', remote_root: robotDir },
        token,
      )
    ).data.rota_robots_id as number;
    const vmId = (
      await api('/api/rota/vm/api/v1/create', { name: 'Bench VM', hostname: 'bench.lan' }, token)
    ).data.rota_vms_id as number;
    const agentTokens: string[] = [];
    for (let i = 0; i < Math.max(...LANES); i += 1) {
      const agent = await api(
        '/api/rota/node/api/v1/create',
        { name: `Bench agent ${i}`, rota_vms_id: vmId },
        token,
      );
      agentTokens.push(agent.data.token as string);
    }
    const runNow = () => api('/api/rota/robot/api/v1/run', { id: robotId }, token);

    // When a result is recorded, by the database's clock (the machine's, as the robot's).
    await db.connect();
    await db.query(`
      create table spawn_bench_recorded (id bigint primary key, at double precision not null);
      create function spawn_bench_stamp() returns trigger language plpgsql as $$
      begin
        if new.status not in ('queued', 'processing') and old.status in ('queued', 'processing') then
          insert into spawn_bench_recorded values
            (new.rota_executions_id, extract(epoch from clock_timestamp()) * 1000)
            on conflict do nothing;
          perform pg_notify('spawn_bench', new.rota_executions_id::text);
        end if;
        return new;
      end $$;
      create trigger spawn_bench_stamp after update of status on rota_executions
        for each row execute function spawn_bench_stamp();`);
    await db.query('listen spawn_bench');
    const recordedCount = async () =>
      (await db.query('select count(*)::int as n from spawn_bench_recorded')).rows[0].n as number;
    const recordedAt = async () =>
      new Map(
        (await db.query('select id, at from spawn_bench_recorded')).rows.map((r) => [
          String(r.id),
          Number(r.at),
        ]),
      );

    let round = 0;
    const startAgent = (root: string, i: number) => {
      const child = spawn(
        process.execPath,
        [
          path.join(root, 'apps/agent/dist/main.js'),
          '--server',
          base,
          '--work-dir',
          path.join(dir, `agent-${round}-${i}`),
          '--concurrency',
          '1',
        ],
        {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ROTA_AGENT_TOKEN: agentTokens[i] },
          stdio: 'ignore',
        },
      );
      running.push(child);
      return child;
    };
    const stopAgents = async (agents: ChildProcess[]) => {
      await Promise.all(
        agents.map(
          (child) =>
            new Promise<void>((resolve) => {
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        ),
      );
    };

    const measureAgent = async (name: string, root: string): Promise<Figures> => {
      const figures: Figures = {
        runsPerSecond: {},
        cpuPerRunMs: {},
        startedMs: [],
        recordedMs: [],
      };
      for (const lanes of LANES) {
        round += 1;
        await rm(path.join(robotDir, 'times'), { force: true });
        await db.query('truncate spawn_bench_recorded');
        for (let i = 0; i < RUNS; i += 1) await runNow();
        const agents = Array.from({ length: lanes }, (_, i) => startAgent(root, i));
        while ((await recordedCount()) < RUNS) await sleep(100);
        const cpu = agents.reduce((sum, child) => sum + treeCpuMs(child.pid!), 0);
        const times = [...(await readTimes(robotDir)).values()];
        const recorded = [...(await recordedAt()).values()];
        const t0 = Math.min(...times.map((t) => t.started));
        const t1 = Math.max(...recorded);
        figures.runsPerSecond[lanes] = (RUNS * 1000) / (t1 - t0);
        figures.cpuPerRunMs[lanes] = cpu / RUNS;

        if (lanes === 1) {
          // One at a time, the agent idle on its stream between them.
          await rm(path.join(robotDir, 'times'), { force: true });
          await db.query('truncate spawn_bench_recorded');
          await sleep(500);
          for (let s = 0; s < SAMPLES; s += 1) {
            const notified = new Promise<string>((resolve) =>
              db.once('notification', (n) => resolve(n.payload!)),
            );
            const asked = now();
            await runNow();
            const id = await notified;
            const at = (await recordedAt()).get(id)!;
            const robot = (await readTimes(robotDir)).get(id)!;
            figures.startedMs.push(robot.started - asked);
            figures.recordedMs.push(at - robot.last);
            await sleep(200);
          }
        }
        await stopAgents(agents);
      }
      report(name, figures);
      return figures;
    };

    const measureSpawn = async (): Promise<Figures> => {
      const figures: Figures = {
        runsPerSecond: {},
        cpuPerRunMs: {},
        startedMs: [],
        recordedMs: [],
      };
      let seq = 0;
      const once = () =>
        new Promise<{ id: string; asked: number; closed: number }>((resolve, reject) => {
          const id = `d${(seq += 1)}`;
          const asked = now();
          const child = spawn('node main.js', {
            shell: true,
            cwd: robotDir,
            env: { ...process.env, ROTA_EXECUTION_ID: id },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          child.stdout.resume();
          child.stderr.resume();
          child.once('error', reject);
          child.once('close', () => resolve({ id, asked, closed: now() }));
        });
      for (const lanes of LANES) {
        await rm(path.join(robotDir, 'times'), { force: true });
        const cpuBefore = treeCpuMs('self');
        const closed: number[] = [];
        let left = RUNS;
        await Promise.all(
          Array.from({ length: lanes }, async () => {
            while (left > 0) {
              left -= 1;
              closed.push((await once()).closed);
            }
          }),
        );
        const times = [...(await readTimes(robotDir)).values()];
        const t0 = Math.min(...times.map((t) => t.started));
        figures.runsPerSecond[lanes] = (RUNS * 1000) / (Math.max(...closed) - t0);
        // This process's own work included: a fair share of what spawning costs.
        figures.cpuPerRunMs[lanes] = (treeCpuMs('self') - cpuBefore) / RUNS;
      }
      await rm(path.join(robotDir, 'times'), { force: true });
      for (let s = 0; s < SAMPLES; s += 1) {
        const { id, asked, closed } = await once();
        const robot = (await readTimes(robotDir)).get(id)!;
        figures.startedMs.push(robot.started - asked);
        figures.recordedMs.push(closed - robot.last);
        await sleep(200);
      }
      report('spawn', figures);
      return figures;
    };

    const contenders = [
      { name: 'spawn', run: measureSpawn },
      ...AGENTS.map(({ name, root }) => ({ name, run: () => measureAgent(name, root) })),
    ];
    for (let rep = 0; rep < REPS; rep += 1) {
      const order = rep % 2 === 0 ? contenders : [...contenders].reverse();
      for (const contender of order) keep(contender.name, await contender.run());
    }
    summary();
  } finally {
    for (const child of running) child.kill('SIGKILL');
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await db.end().catch(() => undefined);
    await scratch.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

const ms = (v: number) => v.toFixed(1);

function report(name: string, f: Figures): void {
  const lanes = LANES.map(
    (l) => `${l}: ${f.runsPerSecond[l]!.toFixed(1)} runs/s, ${ms(f.cpuPerRunMs[l]!)} ms CPU/run`,
  ).join('; ');
  process.stdout.write(
    `${name.padEnd(8)} ${lanes}; started p50 ${ms(quantile(f.startedMs, 0.5))} ms, last line→recorded p50 ${ms(quantile(f.recordedMs, 0.5))} ms (load ${os.loadavg()[0]!.toFixed(2)})\n`,
  );
}

function summary(): void {
  const line = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${ms(sorted[0]!)} / ${ms(quantile(sorted, 0.5))} / ${ms(sorted[sorted.length - 1]!)}`;
  };
  process.stdout.write('\nmin / median / max over repetitions\n');
  for (const [name, reps] of results) {
    const parts = [
      ...LANES.map((l) => `runs/s ${l} agent(s) ${line(reps.map((r) => r.runsPerSecond[l]!))}`),
      ...LANES.map((l) => `CPU/run ${l} ${line(reps.map((r) => r.cpuPerRunMs[l]!))} ms`),
      `started p50 ${line(reps.map((r) => quantile(r.startedMs, 0.5)))} ms`,
      `recorded p50 ${line(reps.map((r) => quantile(r.recordedMs, 0.5)))} ms`,
    ];
    process.stdout.write(`${name}: ${parts.join('; ')}\n`);
  }
}

await main();
