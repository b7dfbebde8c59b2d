/**
 * The scale figures in one command: Rota against pg-boss and graphile-worker on the same
 * PostgreSQL, and the fleet and console-API phases when their scripts are present.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *     /opt/node24/package/bin/node --import tsx bench/scale.ts [--only dispatch|agents|api] [--json]
 *
 * Node ≥ 22 (pg-boss 12 and graphile-worker 0.18 need it; they live in bench/node_modules:
 * `npm ci --prefix bench`). Phases, all available ones by default, or those named by --only
 * (comma-separated):
 *   - dispatch: `BENCH_RUNS` (5000) jobs queued before `BENCH_WORKERS` (20) workers start, claimed
 *     and finished, `BENCH_REPS` (3) repetitions interleaved (Rota, pg-boss, graphile-worker, two
 *     Rota instances, Rota, …), each in a fresh database of its own:
 *       · Rota: the normal app (bench/rota-server.ts) in its own process; the agents are
 *         bench/engine-agents.ts's throughput phase in another process, on the agent stream
 *         (one WebSocket per agent; BENCH_TRANSPORT=http: every call over HTTP), as its variant
 *         `BENCH_VARIANT` (1: one run held per agent, finish asking for the next; 4: four slots
 *         per agent; classic: a claim, then a finish, per run);
 *       · two Rota instances on the same database, the agents split between them;
 *       · pg-boss and graphile-worker: one worker process each doing no-op jobs, 20 at a time
 *         (their settings are printed; BENCH_ANCHOR_BATCH=1 lets them batch fetches and
 *         completions, which Rota does not).
 *     Figures: jobs/s over the wall time from the first claim (Rota: first started_at; anchors:
 *     "go") to the last job finished, and CPU per job = (CPU of the contender's processes, i.e.
 *     Rota's servers or the anchor's worker, + CPU of PostgreSQL's processes working for that
 *     database, read from /proc) / jobs. The simulated agents' CPU is shown apart: they stand
 *     for machines of their own (as they report it; "–" when an agents process had to be
 *     stopped, which two instances usually need: one process's share comes up a few runs short
 *     when the other took more). Load average at the start and end of each run.
 *   - agents: bench/agents-fleet.ts --json (20,000 heartbeating agents), if the file exists;
 *   - api: bench/api-overhead.ts --json (console API against bare Fastify), if the file exists.
 * --json prints one JSON line with every figure instead of the markdown report.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { anchorDispatch } from './anchors/anchor-dispatch.js';
import { benchFile, spawnJson } from './child-json.js';
import { loadAverage } from './process-cpu.js';
import { rotaDispatch, type DispatchFigures } from './rota-dispatch.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 20);
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** bench/engine-agents.ts's variant: runs each agent holds at once, or `classic`. */
const VARIANT = process.env.BENCH_VARIANT ?? '1';
const SERVER = process.env.DATABASE_URL;
if (!SERVER) throw new Error('bench/scale.ts needs DATABASE_URL (a PostgreSQL server)');
if (Number(process.versions.node.split('.')[0]) < 22)
  throw new Error('bench/scale.ts needs Node ≥ 22: /opt/node24/package/bin/node --import tsx …');

const args = process.argv.slice(2);
const json = args.includes('--json');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : null;
const PHASES = {
  dispatch: null,
  agents: benchFile('./agents-fleet.ts'),
  api: benchFile('./api-overhead.ts'),
} as const;
type Phase = keyof typeof PHASES;
for (const name of only ?? [])
  if (!(name in PHASES)) throw new Error(`--only ${name}: not one of ${Object.keys(PHASES)}`);
const wanted = (name: Phase) => (only ? only.includes(name) : true);

const ALL_CONTENDERS = ['Rota', 'pg-boss', 'graphile-worker', 'Rota ×2'] as const;
type Contender = (typeof ALL_CONTENDERS)[number];
/** BENCH_CONTENDERS=Rota,graphile-worker races only those (to try a change quickly). */
const CONTENDERS = process.env.BENCH_CONTENDERS
  ? ALL_CONTENDERS.filter((c) => process.env.BENCH_CONTENDERS!.split(',').includes(c))
  : ALL_CONTENDERS;

interface Run extends DispatchFigures {
  contender: Contender;
  rep: number;
  jobsPerSecond: number;
  /** (contender's processes + PostgreSQL) CPU ms per job. */
  cpuMsPerJob: number;
  loadStart: string;
  loadEnd: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const log = (text: string) => process.stderr.write(`${text}\n`);

async function dispatch() {
  const runs: Run[] = [];
  const settings: Partial<Record<Contender, string>> = {
    Rota: `1 server process (buildApp, pg pool 10), ${WORKERS} agents ${process.env.BENCH_TRANSPORT === 'http' ? 'over HTTP' : 'on the agent stream'}, ${
      VARIANT === 'classic'
        ? 'a claim then a finish per run'
        : `${VARIANT} run(s) held per agent, finish asking for the next run in the same request`
    }`,
    'Rota ×2': `2 server processes on one database, ${WORKERS / 2} + ${WORKERS / 2} agents`,
  };
  for (let rep = 1; rep <= REPS; rep++)
    for (const contender of CONTENDERS) {
      const loadStart = loadAverage();
      log(`dispatch: ${contender}, repetition ${rep} of ${REPS} (load ${loadStart})`);
      let figures: DispatchFigures;
      if (contender === 'Rota' || contender === 'Rota ×2')
        figures = await rotaDispatch(SERVER!, {
          instances: contender === 'Rota' ? 1 : 2,
          runs: RUNS,
          workers: WORKERS,
          variant: VARIANT,
        });
      else {
        const anchor = await anchorDispatch(SERVER!, contender, { runs: RUNS, workers: WORKERS });
        settings[contender] = anchor.settings;
        figures = anchor;
      }
      if (figures.jobs !== RUNS)
        throw new Error(`${contender}: ${figures.jobs} jobs finished, not ${RUNS}`);
      runs.push({
        ...figures,
        contender,
        rep,
        jobsPerSecond: figures.jobs / figures.seconds,
        cpuMsPerJob: (figures.workerCpuMs + figures.postgresCpuMs) / figures.jobs,
        loadStart,
        loadEnd: loadAverage(),
      });
    }
  const medians = Object.fromEntries(
    CONTENDERS.map((c) => {
      const mine = runs.filter((r) => r.contender === c);
      return [
        c,
        {
          jobsPerSecond: median(mine.map((r) => r.jobsPerSecond)),
          cpuMsPerJob: median(mine.map((r) => r.cpuMsPerJob)),
        },
      ];
    }),
  ) as Record<Contender, { jobsPerSecond: number; cpuMsPerJob: number }>;
  const ratios: Record<string, { jobsPerSecond: number; cpuMsPerJob: number }> = {};
  const ratio = (name: string, a: Contender, b: Contender) => {
    if (medians[a] && medians[b])
      ratios[name] = {
        jobsPerSecond: medians[a].jobsPerSecond / medians[b].jobsPerSecond,
        cpuMsPerJob: medians[a].cpuMsPerJob / medians[b].cpuMsPerJob,
      };
  };
  ratio('Rota / graphile-worker', 'Rota', 'graphile-worker');
  ratio('Rota / pg-boss', 'Rota', 'pg-boss');
  ratio('two instances / one', 'Rota ×2', 'Rota');
  return {
    runs,
    medians,
    ratios,
    settings,
  };
}

/** Another helper's phase: its script with --json, its last JSON line. */
async function external(name: Phase, file: string) {
  log(`${name}: ${file} --json (load ${loadAverage()})`);
  // The same PostgreSQL server for every phase (bench/agents-fleet.ts reads BENCH_DATABASE_URL).
  const child = spawnJson(file, ['--json'], {
    BENCH_DATABASE_URL: process.env.BENCH_DATABASE_URL ?? SERVER,
  });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${file} ended with ${code}`);
  const line = child.lines.at(-1);
  if (!line) throw new Error(`${file} printed no JSON line`);
  return line;
}

const report: Record<string, unknown> = {
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model}`,
  node: process.version,
  date: new Date().toISOString(),
  loadStart: loadAverage(),
};
const dispatched = wanted('dispatch') ? await dispatch() : null;
if (dispatched) report.dispatch = dispatched;
for (const name of ['agents', 'api'] as const) {
  const file = PHASES[name];
  if (!wanted(name)) continue;
  if (!existsSync(file)) {
    if (only) throw new Error(`--only ${name}: ${file} does not exist yet`);
    log(`${name}: ${file} is not there, skipped`);
    continue;
  }
  report[name] = await external(name, file);
}
report.loadEnd = loadAverage();

const fixed = (n: number | null, digits: number) => (n === null ? '–' : n.toFixed(digits));
if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
else {
  const out: string[] = [
    `${report.machine}; Node ${process.version}; PostgreSQL at ${new URL(SERVER).host}; ${String(report.date).slice(0, 16)}; load average ${report.loadStart} at the start, ${report.loadEnd} at the end`,
  ];
  if (dispatched) {
    out.push(
      '',
      `Dispatch: ${RUNS} jobs queued, ${WORKERS} workers, ${REPS} repetitions interleaved`,
      '',
      '| contender | rep | jobs/s | CPU ms/job (workers + PG) | workers ms/job | PG ms/job | agents ms/job | load start → end |',
      '|---|---|---|---|---|---|---|---|',
      ...dispatched.runs.map(
        (r) =>
          `| ${r.contender} | ${r.rep} | ${r.jobsPerSecond.toFixed(0)} | ${r.cpuMsPerJob.toFixed(3)} | ${(r.workerCpuMs / r.jobs).toFixed(3)} | ${(r.postgresCpuMs / r.jobs).toFixed(3)} | ${fixed(r.agentsCpuMs === null ? null : r.agentsCpuMs / r.jobs, 3)} | ${r.loadStart} → ${r.loadEnd} |`,
      ),
      '',
      '| contender (median) | jobs/s | CPU ms/job | settings |',
      '|---|---|---|---|',
      ...CONTENDERS.map(
        (c) =>
          `| ${c} | ${dispatched.medians[c].jobsPerSecond.toFixed(0)} | ${dispatched.medians[c].cpuMsPerJob.toFixed(3)} | ${dispatched.settings[c] ?? ''} |`,
      ),
      '',
      '| ratio (medians) | jobs/s | CPU per job |',
      '|---|---|---|',
      ...Object.entries(dispatched.ratios).map(
        ([name, r]) =>
          `| ${name} | ${r.jobsPerSecond.toFixed(2)} × | ${r.cpuMsPerJob.toFixed(2)} × |`,
      ),
    );
  }
  for (const name of ['agents', 'api'] as const) {
    const figures = report[name] as Record<string, unknown> | undefined;
    if (!figures) continue;
    out.push(
      '',
      `${name === 'agents' ? 'Agents fleet (bench/agents-fleet.ts)' : 'Console API (bench/api-overhead.ts)'}`,
      '',
      '| key | value |',
      '|---|---|',
      // An array (say, one entry per case) gets a row per entry.
      ...Object.entries(figures).flatMap(([key, value]) =>
        Array.isArray(value) && value.some((v) => typeof v === 'object')
          ? value.map((v, i) => `| ${key}[${i}] | ${JSON.stringify(v)} |`)
          : [`| ${key} | ${typeof value === 'object' ? JSON.stringify(value) : String(value)} |`],
      ),
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}
