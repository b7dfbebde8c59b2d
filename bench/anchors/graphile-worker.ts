/**
 * graphile-worker 0.18's side of bench/scale.ts's dispatch race, in its own process: migrates the
 * database at job.url, queues `runs` no-op jobs, says `{"ready"}`, and on "go" (stdin) runs one
 * runner with `concurrency: workers` until every job is done (the jobs table is empty), then says
 * `{"done"}` with its seconds and its own CPU. "exit" stops it.
 *
 * Settings: LISTEN/NOTIFY (always on in graphile-worker), pollInterval 100 ms (default 2 s; only
 * matters when idle), one job fetched and completed at a time (no localQueue batching, no
 * completeJobBatchDelay): a job locked, run and marked done on its own, as Rota's claim + finish.
 * `BENCH_ANCHOR_BATCH=1` turns on the documented batching (localQueue.size = workers + 1,
 * completeJobBatchDelay 0) for its best case. The default logger writes a line per job: replaced
 * by one that keeps warnings and errors only.
 */
import { createInterface } from 'node:readline';
import { Logger, makeWorkerUtils, run, type RunnerOptions } from 'graphile-worker';

const job = JSON.parse(process.argv[2] ?? '{}') as { url: string; runs: number; workers: number };
const batch = process.env.BENCH_ANCHOR_BATCH === '1';
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const lines = createInterface({ input: process.stdin });
const stdin = lines[Symbol.asyncIterator]();
const expect = async (word: string) => {
  const { value } = await stdin.next();
  if (value !== word) throw new Error(`expected "${word}", read "${String(value)}"`);
};
const quiet = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning')
    process.stderr.write(`graphile-worker: ${message}\n`);
});

const utils = await makeWorkerUtils({ connectionString: job.url, logger: quiet });
await utils.migrate();
for (let i = 0; i < job.runs; i += 1000)
  await utils.addJobs(
    Array.from({ length: Math.min(1000, job.runs - i) }, () => ({
      identifier: 'noop',
      payload: {},
    })),
  );
const settings = batch
  ? `concurrency ${job.workers}, LISTEN, pollInterval 100 ms, localQueue ${job.workers + 1}, completeJobBatchDelay 0`
  : `concurrency ${job.workers}, LISTEN, pollInterval 100 ms, a job at a time`;
say({ ready: true, settings });
await expect('go');

const cpuStart = process.cpuUsage();
const started = performance.now();
let handled = 0;
const options: RunnerOptions = {
  connectionString: job.url,
  concurrency: job.workers,
  maxPoolSize: job.workers + 2,
  pollInterval: 100,
  noHandleSignals: true,
  logger: quiet,
  taskList: {
    noop: async () => {
      handled += 1;
    },
  },
  ...(batch
    ? { preset: { worker: { localQueue: { size: job.workers + 1 }, completeJobBatchDelay: 0 } } }
    : {}),
};
const runner = await run(options);
// Done when the last job is marked done, not when its handler returns.
for (;;) {
  if (handled >= job.runs) {
    const left = await utils.withPgClient((c) =>
      c.query<{ left: string }>('select count(*) as left from graphile_worker.jobs'),
    );
    if (Number(left.rows[0]!.left) === 0) break;
  }
  await new Promise((r) => setTimeout(r, handled >= job.runs ? 5 : 20));
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
say({ done: true, jobs: handled, seconds, cpuMs: (cpu.user + cpu.system) / 1000 });
await expect('exit');
await runner.stop();
await utils.release();
lines.close(); // an open stdin would keep this process alive
