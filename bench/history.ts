/**
 * Flat with history: every console read at 10,000 executions and at 1,000,000 (BENCH_SIZES,
 * comma-separated, e.g. 10000,1000000,10000000), p99 with 8 users clicking at once, on
 * PostgreSQL. Each size gets a database seeded by bench/seed-history.ts (a year of runs, five
 * log lines a run, a task per two runs) and a Rota server of its own (bench/rota-server.ts);
 * the sizes are then measured in turn, BENCH_REPS (3) times interleaved, by
 * bench/history-client.ts in a separate process. The yardstick of each read is itself at the
 * smallest size.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/history.ts
 *
 * BENCH_ROUNDS (20 rounds of BENCH_USERS = 8 a case and repetition), BENCH_PAUSE_MS (50).
 * BENCH_KEEP=1 keeps the databases; BENCH_SEEDED="10000=<url>,1000000=<url>" measures them again
 * without seeding.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgres } from '../apps/server/src/db/client.js';
import { createScratchDatabase } from './scratch-database.js';
import { seedHistory } from './seed-history.js';

const SERVER_URL = process.env.DATABASE_URL;
if (!SERVER_URL) throw new Error('DATABASE_URL: the PostgreSQL server to seed on');
const SIZES = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const USERS = Number(process.env.BENCH_USERS ?? 8);
const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 50);
const PASSWORD = 'bench-password-1';
const seeded = new Map(
  (process.env.BENCH_SEEDED ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2) as [string, string])
    .map(([size, url]) => [Number(size), url]),
);

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const day = (offset: number) => {
  const at = new Date();
  at.setDate(at.getDate() + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
};

interface Sized {
  size: number;
  url: string;
  drop?: () => Promise<void>;
  seedSeconds?: number;
  startSeconds: number;
  server: ChildProcess;
  address: string;
  token: string;
  robot: number;
  execution: number;
}

async function startServer(url: string) {
  const started = performance.now();
  const server = spawn(process.execPath, ['--import', 'tsx', here('./rota-server.ts'), url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"address"'));
      if (line) resolve((JSON.parse(line) as { address: string }).address);
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { server, address, startSeconds: (performance.now() - started) / 1000 };
}

async function prepare(size: number): Promise<Sized> {
  let url = seeded.get(size);
  let drop: (() => Promise<void>) | undefined;
  let seedSeconds: number | undefined;
  if (!url) {
    const scratch = await createScratchDatabase(SERVER_URL!, `history_${size}`);
    url = scratch.url;
    drop = scratch.drop;
    const database = await openPostgres(url, 4);
    const t0 = performance.now();
    await seedHistory(database, size, PASSWORD);
    seedSeconds = (performance.now() - t0) / 1000;
    await database.close();
    console.error(`seeded ${size} executions in ${seedSeconds.toFixed(1)} s: ${url}`);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ robot: number; execution: number }>(
    `select (select min(rota_robots_id) from rota_robots) + 41 as robot,
            (select max(rota_executions_id) from rota_executions where attempts > 0) as execution`,
  );
  await client.end();
  // The first start after seeding records the zone and fills the execution days.
  const { server, address, startSeconds } = await startServer(url);
  const res = await fetch(`${address}/api/user/api/auth/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access: 'admin', password: PASSWORD }),
  });
  const { token } = (await res.json()) as { token: string };
  return { size, url, drop, seedSeconds, startSeconds, server, address, token, ...rows[0]! };
}

function casesOf(s: Sized) {
  const A = '/api/rota/activity/api/v1';
  return [
    {
      name: 'dashboard, 30 days',
      path: '/api/rota/dashboard/api/v1/index',
      body: { startDate: day(-29), endDate: day(0) },
    },
    { name: 'activity, first page with total', path: `${A}/index`, body: {} },
    { name: 'activity, status filter', path: `${A}/index`, body: { status: 'application_error' } },
    {
      name: 'activity, last 7 days',
      path: `${A}/index`,
      body: { startDate: day(-6), endDate: day(0) },
    },
    { name: 'activity, search', path: `${A}/index`, body: { search: 'Robot 42' } },
    { name: 'robot page: the robot', path: '/api/rota/robot/api/v1/show', body: { id: s.robot } },
    { name: 'robot page: its runs', path: `${A}/index`, body: { rota_robots_id: s.robot } },
    { name: 'tasks list', path: '/api/rota/task/api/v1/index', body: {} },
    { name: 'execution page', path: `${A}/show`, body: { id: s.execution } },
    { name: 'execution page: log', path: `${A}/logs`, body: { id: s.execution } },
    {
      name: 'CSV export, 7 days, first byte',
      path: `${A}/export`,
      body: { startDate: day(-6), endDate: day(0) },
      firstByte: true,
    },
  ];
}

async function measure(s: Sized) {
  const load = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      here('./history-client.ts'),
      JSON.stringify({
        address: s.address,
        token: s.token,
        rounds: ROUNDS,
        users: USERS,
        pauseMs: PAUSE_MS,
        cases: casesOf(s),
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  load.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => load.on('close', resolve));
  if (code !== 0) throw new Error(`the load process failed (${code})`);
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { name: string; p50: number; p99: number; max: number });
}

const sized: Sized[] = [];
for (const size of SIZES) sized.push(await prepare(size));

type Figures = { p50: number[]; p99: number[] };
const results = new Map<number, Map<string, Figures>>(SIZES.map((size) => [size, new Map()]));
const loads: number[] = [];
for (let rep = 0; rep < REPS; rep++) {
  for (const s of sized) {
    for (const r of await measure(s)) {
      const figures = results.get(s.size)!.get(r.name) ?? { p50: [], p99: [] };
      figures.p50.push(r.p50);
      figures.p99.push(r.p99);
      results.get(s.size)!.set(r.name, figures);
    }
    loads.push(os.loadavg()[0]!);
    console.error(`repetition ${rep + 1}, ${s.size}: done (load ${os.loadavg()[0]!.toFixed(1)})`);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const span = (xs: number[]) =>
  `${median(xs).toFixed(1)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`;
const base = SIZES[0]!;
console.log(
  `PostgreSQL 15; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}; ${new Date().toISOString()}`,
);
console.log(
  `${USERS} users clicking at once, ${ROUNDS} rounds a case, ${REPS} repetitions interleaved across sizes; load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
);
for (const s of sized) {
  console.log(
    `${s.size.toLocaleString('en')} executions: ${s.seedSeconds === undefined ? 'seeded before' : `seeded in ${s.seedSeconds.toFixed(0)} s`}, first start (fills the execution days) ${s.startSeconds.toFixed(1)} s`,
  );
}
const header = SIZES.map((n) => `p99 ms at ${n.toLocaleString('en')}`);
console.log(
  `| read | ${header.join(' | ')} | ${SIZES.slice(1)
    .map((n) => `p99 ${n.toLocaleString('en')} / ${base.toLocaleString('en')}`)
    .join(' | ')} | p50 ${SIZES.map((n) => n.toLocaleString('en')).join(' / ')} |`,
);
console.log(
  `|---|${SIZES.map(() => '---|').join('')}${SIZES.slice(1)
    .map(() => '---|')
    .join('')}---|`,
);
for (const name of results.get(base)!.keys()) {
  const of = (size: number) => results.get(size)!.get(name)!;
  const ratios = SIZES.slice(1).map(
    (n) => `${(median(of(n).p99) / median(of(base).p99)).toFixed(2)}×`,
  );
  console.log(
    `| ${name} | ${SIZES.map((n) => span(of(n).p99)).join(' | ')} | ${ratios.join(' | ')} | ${SIZES.map((n) => median(of(n).p50).toFixed(1)).join(' / ')} |`,
  );
}

for (const s of sized) {
  s.server.kill('SIGTERM');
  await new Promise((resolve) => s.server.once('exit', resolve));
  if (process.env.BENCH_KEEP === '1') console.log(`kept ${s.size}: ${s.url}`);
  else await s.drop?.();
}
