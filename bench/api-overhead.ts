/**
 * The console API figures: Rota's robot list and `me` against a bare Fastify server
 * running the same SQL (bench/bare-api-server.ts), each server in its own process, loaded by
 * autocannon from a third process, 8 and 64 connections, interleaved (Rota, bare, Rota, bare…);
 * then the list pages' p99 (first page, a filter, a search) with 8 users at once at BENCH_ROWS
 * robots.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     /opt/node24/package/bin/node --import tsx bench/api-overhead.ts [--json]
 *
 * BENCH_ROWS (100000) robots, BENCH_SECONDS (10) per run, BENCH_ROUNDS (2) Rota/bare pairs per
 * case, BENCH_POOL (10) connections in each server's pool. `--json` prints one JSON line.
 * BENCH_ENDPOINTS (`me`, `robot list`, comma-separated) runs only those and no list page;
 * BENCH_PAGES (`first page`, `filter`, `search`) runs only those list pages.
 *
 * List pages are loaded two ways. Back to back: autocannon's 8 connections, each sending its next
 * request as soon as the last is answered (the servers' capacity, and a p99 that is mostly the
 * queue). Clicking (bench/click-load.ts): 8 users click at once, each on its own connection, and
 * click again BENCH_CLICK_PAUSE (50) ms after the round's last answer, BENCH_CLICK_ROUNDS (400)
 * rounds a run: the p99 of a click when 8 people open the page at the same moment.
 */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { benchFile, spawnJson } from './child-json.js';
import { startScriptNodeFlags } from './production-server.js';

const JSON_OUT = process.argv.includes('--json');
const SERVE = process.argv.indexOf('--serve-rota');
const PASSWORD = 'bench-password-1';
const POOL = Number(process.env.BENCH_POOL ?? 10);

/** The child: Rota's real app (its production logger settings, no console files) on `url`. */
async function serveRota(url: string) {
  const { openPostgres } = await import('../apps/server/src/db/client.js');
  const { buildApp } = await import('../apps/server/src/http/app.js');
  const { SecretBox } = await import('../apps/server/src/lib/secret-box.js');
  const { loadConfig } = await import('../apps/server/src/config/env.js');
  const { tuneHeap } = await import('../apps/server/src/lib/heap-tuning.js');
  // The heap policy main.ts sets.
  tuneHeap();
  const config = loadConfig({ ...process.env, DATABASE_URL: url });
  const database = await openPostgres(url, POOL);
  const app = await buildApp({
    config,
    db: database.db,
    webRoot: null,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir: os.tmpdir(),
    events: database.events,
    // The API's cost only: no scheduler ticks, retention or sweeps competing for the CPU.
    engine: { loop: false },
    blobSweep: false,
    // As main.ts configures it (stdout is /dev/null here, as a file or a pipe would be).
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    logRequests: config.LOG_REQUESTS,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.({ address });
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  });
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function waitForAddress(child: ChildProcess, how: 'ipc' | 'stdout'): Promise<string> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
    if (how === 'ipc') {
      child.once('message', (m: { address: string }) => resolve(m.address));
      return;
    }
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { address: string }).address);
    });
  });
}

const AUTOCANNON = fileURLToPath(
  new URL('./node_modules/autocannon/autocannon.js', import.meta.url),
);

/** One autocannon run in its own process (the load never shares the servers' event loops). */
async function load(
  url: string,
  token: string,
  body: object,
  connections: number,
  seconds: number,
): Promise<Run> {
  const child = spawn(
    process.execPath,
    [
      AUTOCANNON,
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-m',
      'POST',
      '-H',
      `authorization=Bearer ${token}`,
      '-H',
      'content-type=application/json',
      '-b',
      JSON.stringify(body),
      '--json',
      url,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
    timeouts: number;
  };
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

interface Clicks {
  samples: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

/** 8 users clicking at once, `rounds` times, in their own process. */
async function clicks(url: string, token: string, body: object): Promise<Clicks> {
  const child = spawnJson(benchFile('click-load.ts'), [
    url,
    token,
    JSON.stringify(body),
    '8',
    process.env.BENCH_CLICK_ROUNDS ?? '400',
    process.env.BENCH_CLICK_PAUSE ?? '50',
  ]);
  const result = (await child.next()) as unknown as Clicks;
  await child.exited;
  return result;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL (PostgreSQL) is required: the bare server speaks pg');
  const rows = Number(process.env.BENCH_ROWS ?? 100_000);
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 2);

  // A throw-away database, as bench/bench-database.ts makes, whose URL the servers are given.
  const name = `rota_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(url);
  target.pathname = `/${name}`;
  const benchUrl = target.toString();
  const children: ChildProcess[] = [];
  try {
    const { openPostgres } = await import('../apps/server/src/db/client.js');
    const { seedOperationsDatabase } = await import('./seed-operations.js');
    const database = await openPostgres(benchUrl, 2);
    await seedOperationsDatabase(database, rows, PASSWORD);
    await database.close();

    const self = fileURLToPath(import.meta.url);
    // BENCH_CPU_PROF=<dir>: the Rota server writes a V8 CPU profile there when it stops.
    const profile = process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [];
    const rota = spawn(
      process.execPath,
      // npm start's Node flags too (the young generation's size), as operators run it.
      [...profile, ...startScriptNodeFlags(), ...process.execArgv, self, '--serve-rota', benchUrl],
      {
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      },
    );
    children.push(rota);
    const bare = spawn(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(new URL('./bare-api-server.ts', import.meta.url)),
        benchUrl,
        String(POOL),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(bare);
    const servers = {
      rota: await waitForAddress(rota, 'ipc'),
      bare: await waitForAddress(bare, 'stdout'),
    };
    const signIn = await fetch(`${servers.rota}/api/user/api/auth/v1/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access: 'admin', password: PASSWORD }),
    });
    const { token } = (await signIn.json()) as { token: string };
    if (!token) throw new Error(`sign-in answered ${signIn.status}`);

    // BENCH_ENDPOINTS=me (or "robot list"): only those, for a profile of one.
    const only = process.env.BENCH_ENDPOINTS?.split(',');
    const endpoints = [
      { endpoint: 'robot list', path: '/api/rota/robot/api/v1/index', body: {} },
      { endpoint: 'me', path: '/api/user/api/auth/v1/me', body: {} },
    ].filter((e) => !only || only.includes(e.endpoint));
    // The yardstick must answer what Rota answers, or it measures less work.
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .sort(([a], [b]) => a.localeCompare(b))
                .map(([k, x]) => [k, sorted(x)]),
            )
          : v;
    for (const { path, body } of [
      ...endpoints,
      { path: '/api/rota/robot/api/v1/index', body: { active: false } },
      { path: '/api/rota/robot/api/v1/index', body: { search: '4242' } },
    ]) {
      const [mine, theirs] = await Promise.all(
        [servers.rota, servers.bare].map(async (base) => {
          const res = await fetch(`${base}${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          return JSON.stringify(sorted(await res.json()));
        }),
      );
      if (mine !== theirs)
        throw new Error(
          `the bare server answers ${path} differently:\n${mine.slice(0, 400)}\n${theirs.slice(0, 400)}`,
        );
    }

    // Warm-up: JIT, pools and PostgreSQL's plans and caches, on both servers.
    for (const { path, body } of endpoints)
      for (const base of [servers.rota, servers.bare])
        await load(`${base}${path}`, token, body, 8, Math.min(3, seconds));

    const ratios: {
      endpoint: string;
      connections: number;
      rota: Run;
      bare: Run;
      ratio: number;
    }[] = [];
    for (const { endpoint, path, body } of endpoints) {
      for (const connections of [8, 64]) {
        const runs: Record<'rota' | 'bare', Run[]> = { rota: [], bare: [] };
        for (let round = 0; round < rounds; round++) {
          for (const side of ['rota', 'bare'] as const) {
            runs[side].push(
              await load(`${servers[side]}${path}`, token, body, connections, seconds),
            );
          }
        }
        const mean = (list: Run[]): Run => ({
          rps: list.reduce((s, r) => s + r.rps, 0) / list.length,
          p50: list.reduce((s, r) => s + r.p50, 0) / list.length,
          p99: list.reduce((s, r) => s + r.p99, 0) / list.length,
          errors: list.reduce((s, r) => s + r.errors, 0),
        });
        const rotaRun = mean(runs.rota);
        const bareRun = mean(runs.bare);
        ratios.push({
          endpoint,
          connections,
          rota: rotaRun,
          bare: bareRun,
          ratio: rotaRun.rps / bareRun.rps,
        });
      }
    }

    const pages = [
      { page: 'first page', body: {} },
      { page: 'filter', body: { active: false } },
      { page: 'search', body: { search: '4242' } },
    ];
    const listPages: {
      page: string;
      rota: Run;
      bare: Run;
      rotaClicks: Clicks;
      bareClicks: Clicks;
    }[] = [];
    const onlyPages = process.env.BENCH_PAGES?.split(',');
    const chosenPages = onlyPages
      ? pages.filter((p) => onlyPages.includes(p.page))
      : only
        ? []
        : pages;
    for (const { page, body } of chosenPages) {
      const path = '/api/rota/robot/api/v1/index';
      listPages.push({
        page,
        rota: await load(`${servers.rota}${path}`, token, body, 8, seconds),
        bare: await load(`${servers.bare}${path}`, token, body, 8, seconds),
        rotaClicks: await clicks(`${servers.rota}${path}`, token, body),
        bareClicks: await clicks(`${servers.bare}${path}`, token, body),
      });
    }

    const loadavg = os.loadavg().map((l) => l.toFixed(2));
    const machine = `${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}`;
    if (JSON_OUT) {
      process.stdout.write(
        `${JSON.stringify({ bench: 'api-overhead', rows, seconds, rounds, pool: POOL, machine, loadavg, ratios, listPages })}\n`,
      );
    } else {
      console.log(
        `PostgreSQL (pool of ${POOL} each side); ${rows} robots; ${seconds} s a run, ${rounds} Rota/bare pairs interleaved; autocannon in its own process`,
      );
      console.log(`${machine}; load average ${loadavg.join(' ')}; ${new Date().toISOString()}`);
      console.log(
        '| endpoint | connections | Rota req/s | bare req/s | Rota/bare | Rota p50 / p99 ms | bare p50 / p99 ms | errors |',
      );
      console.log('|---|---|---|---|---|---|---|---|');
      for (const r of ratios)
        console.log(
          `| ${r.endpoint} | ${r.connections} | ${r.rota.rps.toFixed(0)} | ${r.bare.rps.toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.rota.p50.toFixed(1)} / ${r.rota.p99.toFixed(1)} | ${r.bare.p50.toFixed(1)} / ${r.bare.p99.toFixed(1)} | ${r.rota.errors + r.bare.errors} |`,
        );
      console.log(`\nList pages at ${rows} robots, 8 users (target p99 < 10 ms):`);
      console.log(
        '| page | back to back: Rota req/s | Rota p50 / p99 ms | bare p50 / p99 ms | clicking at once: Rota p50 / p99 / max ms | bare p50 / p99 / max ms | clicks (errors) |',
      );
      console.log('|---|---|---|---|---|---|---|');
      const ms = (c: Clicks) => `${c.p50.toFixed(1)} / ${c.p99.toFixed(1)} / ${c.max.toFixed(1)}`;
      for (const l of listPages)
        console.log(
          `| ${l.page} | ${l.rota.rps.toFixed(0)} | ${l.rota.p50.toFixed(1)} / ${l.rota.p99.toFixed(1)} | ${l.bare.p50.toFixed(1)} / ${l.bare.p99.toFixed(1)} | ${ms(l.rotaClicks)} | ${ms(l.bareClicks)} | ${l.rotaClicks.samples} + ${l.bareClicks.samples} (${l.rotaClicks.errors + l.bareClicks.errors}) |`,
        );
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      children.map((c) =>
        c.exitCode === null ? new Promise((resolve) => c.once('exit', resolve)) : null,
      ),
    );
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
  }
}

if (SERVE >= 0) {
  await serveRota(process.argv[SERVE + 1]!);
} else {
  await main();
}
