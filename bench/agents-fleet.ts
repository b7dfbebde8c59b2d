/**
 * 20,000 agents heartbeating every 10 s: a fresh PostgreSQL database with the agents,
 * Rota in its own process as `npm start` runs it (bench/production-server.ts: the built
 * `apps/server/dist/main.js`, so run `npm run build -w @rota/server` first; its memory is the
 * figure), the agents in another (bench/agents-fleet-load.ts). Two variants: heartbeats only, and heartbeats while every agent
 * also holds a claim long poll open (wait 25 s), as real agents do.
 *
 *     node --import tsx bench/agents-fleet.ts [--json]
 *
 * Env: BENCH_DATABASE_URL (the server, default postgres://postgres@127.0.0.1:5432/postgres),
 * BENCH_AGENTS (20000), BENCH_SECONDS (30, measured after every agent has beaten once),
 * BENCH_SOCKETS (18000: heartbeat sockets; agents share them round robin beyond that),
 * BENCH_CLAIM_AGENTS (9000: agents in the long-poll variant, two sockets each),
 * BENCH_VARIANTS (heartbeats,claim,idle,stream), BENCH_HEAP_SNAPSHOT (1: at the window's end the
 * server writes a heap snapshot, and its live heap is a figure; two runs at two fleet sizes give
 * an agent's heap, which does not swing with the garbage collector's timing as RSS does).
 *
 * `idle`: idle agents as this version runs them (`claim_is_heartbeat`): no heartbeat, one claim
 * long poll of 10 s after another on one socket each, BENCH_SOCKETS agents; its p50/p99 are how
 * much longer than 10 s a claim took, and "heartbeats per second" are claims. `stream`: the same
 * idle agents on the agent stream (one WebSocket each, claims as messages), as this version's
 * agent runs them against this version's server.
 *
 * Sockets: this machine's hard limit of open files per process is `ulimit -Hn` (20,000 here),
 * and the server holds one per connection, so 20,000 agents on one socket each cannot all
 * connect: heartbeats use BENCH_SOCKETS sockets, and the long-poll variant BENCH_CLAIM_AGENTS
 * agents with a socket for heartbeats and one for the long poll. Both processes are started with
 * the soft limit raised to the hard one.
 *
 * Figures (steady state: heartbeats sent after the warm-up round, in which every agent connects
 * and its identity is read from the database, and one more round of 10 s, in which agents whose
 * first beat came late catch up; the warm-up round has its own p99 and errors): heartbeat p50/p99
 * as the agents measure them, new connections opened meanwhile (0 when every socket is kept); server CPU and PostgreSQL CPU (every `postgres` process of that database and the shared
 * ones, from /proc) as % of one core; server RSS (VmRSS sampled every 250 ms): the peak over the
 * whole run, warm-up storm included, the peak while every agent is connected (measured window),
 * and at the window's end (V8 gives back the storm's pages some tens of seconds after it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { openPostgres } from '../apps/server/src/db/client.js';
import { benchFile } from './child-json.js';
import { heapSnapshotFlags, liveHeapBytes } from './heap-snapshot.js';
import { loadAverage, PostgresCpuMeter, processCpuMs } from './process-cpu.js';
import { startProductionServer } from './production-server.js';
import { createScratchDatabase } from './scratch-database.js';
import { seedFleet } from './seed-fleet.js';

const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AGENTS = Number(process.env.BENCH_AGENTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 18_000);
const CLAIM_AGENTS = Number(process.env.BENCH_CLAIM_AGENTS ?? 9_000);
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'heartbeats,claim,idle,stream').split(',');
const HEAP_SNAPSHOT = process.env.BENCH_HEAP_SNAPSHOT === '1';
const json = process.argv.includes('--json');
const log = (line: string) => {
  if (!json) process.stderr.write(`${line}\n`);
};

/** A tsx child with the open-files soft limit raised to the hard one; JSON lines on stdout. */
function child(script: string, args: string[]) {
  const proc: ChildProcess = spawn(
    '/bin/sh',
    [
      '-c',
      'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"',
      process.execPath,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: Record<string, unknown>[] = [];
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    try {
      const line = JSON.parse(text) as Record<string, unknown>;
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    } catch {
      process.stderr.write(`${text}\n`);
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.on('close', resolve));
  return {
    pid: proc.pid!,
    proc,
    exited,
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : Promise.race([
            new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve)),
            exited.then((code) => {
              throw new Error(`${script} exited (${code}) before its next line`);
            }),
          ]),
  };
}

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

async function variant(name: string) {
  const claim = name === 'claim';
  const stream = name === 'stream';
  // A stream agent is an idle agent whose claims are messages on its one WebSocket.
  const idle = name === 'idle' || stream;
  // Every idle agent has a socket of its own (its claims): no more than the sockets allowed.
  const agents = claim ? Math.min(AGENTS, CLAIM_AGENTS) : idle ? Math.min(AGENTS, SOCKETS) : AGENTS;
  const sockets = claim || idle ? agents : Math.min(SOCKETS, agents);
  const scratch = await createScratchDatabase(SERVER, 'rota_fleet');
  const database = await openPostgres(scratch.url, 2);
  let server: Awaited<ReturnType<typeof startProductionServer>> | null = null;
  const cleanUp: (() => void)[] = [];
  try {
    const { db } = database;
    const rows = async <T>(statement: ReturnType<typeof sql>) =>
      ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
    const { tokens } = await seedFleet(database, { agents, name: 'Fleet' });
    await db.execute(sql`analyze`);
    log(`  ${agents} agents in the database`);

    const snapshotDir = mkdtempSync(path.join(os.tmpdir(), 'rota-heap-'));
    cleanUp.push(() => rmSync(snapshotDir, { recursive: true, force: true }));
    server = await startProductionServer(
      scratch.url,
      {},
      HEAP_SNAPSHOT ? heapSnapshotFlags(snapshotDir) : [],
    );
    const { address } = server;
    // The peak over the whole run (the warm-up's connection storm included) and the peak while
    // every agent is connected and beating (the measured window).
    let maxRss = rssMb(server.pid);
    let steadyMaxRss = 0;
    let measuring = false;
    let postgres: PostgresCpuMeter | null = null;
    const sampler = setInterval(() => {
      const now = rssMb(server!.pid);
      maxRss = Math.max(maxRss, now);
      if (measuring) steadyMaxRss = Math.max(steadyMaxRss, now);
      postgres?.sample();
    }, 250);
    // 20,000 tokens are too long for one argument (128 kB): the job goes through a file.
    const jobFile = path.join(os.tmpdir(), `${scratch.name}.json`);
    writeFileSync(
      jobFile,
      JSON.stringify({
        address,
        tokens,
        seconds: SECONDS,
        claim,
        idle: idle && !stream,
        stream,
        sockets,
      }),
    );
    const load = child(benchFile('./agents-fleet-load.ts'), [jobFile]);
    log(`  server at ${address}; agents starting`);
    await load.next(); // warm: every agent beat once
    log(`  every agent heard once; measuring ${SECONDS} s`);
    const loadStart = loadAverage();
    const wallStart = performance.now();
    const serverStart = processCpuMs(server.pid) ?? 0;
    postgres = new PostgresCpuMeter(scratch.name);
    measuring = true;
    const figures = (await load.next()) as Record<string, number>;
    log(`  load: ${JSON.stringify(figures)}`);
    const wall = performance.now() - wallStart;
    const serverCpu = (processCpuMs(server.pid) ?? 0) - serverStart;
    const postgresCpu = postgres.elapsedMs();
    clearInterval(sampler);
    const endRss = rssMb(server.pid);
    maxRss = Math.max(maxRss, endRss);
    steadyMaxRss = Math.max(steadyMaxRss, endRss);
    // After the window's figures: the snapshot stops the server for seconds.
    const liveHeap = HEAP_SNAPSHOT ? await liveHeapBytes(server.pid, snapshotDir) : null;
    const [counts] = await rows<{ online: string }>(
      sql`select count(*) filter (where online and last_seen_at > now() - interval '30 seconds') as online from rota_nodes`,
    );
    return {
      variant: claim
        ? 'heartbeats + claim long poll'
        : stream
          ? 'idle agents on the stream: claims as messages on one WebSocket each'
          : idle
            ? 'idle agents: claims standing for heartbeats'
            : 'heartbeats',
      agents,
      heartbeatSockets: idle ? 0 : sockets,
      longPolls: claim || idle ? agents : 0,
      seconds: Number((wall / 1000).toFixed(1)),
      heartbeatsPerSecond: Number(figures.heartbeatsPerSecond!.toFixed(0)),
      p50Ms: Number(figures.p50Ms!.toFixed(2)),
      p99Ms: Number(figures.p99Ms!.toFixed(2)),
      maxMs: Number(figures.maxMs!.toFixed(1)),
      errors: figures.errors,
      newConnections: figures.newConnections,
      warmUpP99Ms: Number(figures.warmUpP99Ms!.toFixed(1)),
      warmUpErrors: figures.warmUpErrors,
      claims: figures.claims,
      claimErrors: figures.claimErrors,
      firstError: (figures as unknown as { firstError?: string }).firstError ?? null,
      serverCpuPercent: Number(((serverCpu / wall) * 100).toFixed(1)),
      postgresCpuPercent: Number(((postgresCpu / wall) * 100).toFixed(1)),
      serverPlusPostgresCpuPercent: Number((((serverCpu + postgresCpu) / wall) * 100).toFixed(1)),
      serverCpuMsPerHeartbeat: Number(
        (serverCpu / (figures.heartbeatsPerSecond! * (wall / 1000))).toFixed(3),
      ),
      postgresCpuMsPerHeartbeat: Number(
        (postgresCpu / (figures.heartbeatsPerSecond! * (wall / 1000))).toFixed(3),
      ),
      serverMaxRssMb: Number(maxRss.toFixed(0)),
      serverSteadyMaxRssMb: Number(steadyMaxRss.toFixed(0)),
      serverEndRssMb: Number(endRss.toFixed(0)),
      serverLiveHeapMb: liveHeap === null ? null : Number((liveHeap / 1024 / 1024).toFixed(1)),
      agentsActiveAtEnd: Number(counts!.online),
      loadGeneratorCpuPercent: Number(figures.clientCpuPercent!.toFixed(1)),
      loadGeneratorLoopDelayMaxMs: Number(figures.clientLoopDelayMaxMs!.toFixed(0)),
      loadAverage: `${loadStart} → ${loadAverage()}`,
    };
  } finally {
    if (server) await server.stop();
    rmSync(path.join(os.tmpdir(), `${scratch.name}.json`), { force: true });
    for (const step of cleanUp) step();
    await database.close();
    await scratch.drop();
  }
}

const results = [];
for (const name of VARIANTS) {
  log(`agents-fleet: ${name}…`);
  results.push(await variant(name));
}
const report = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model}`,
  node: process.version,
  date: new Date().toISOString(),
  variants: results,
};
if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
