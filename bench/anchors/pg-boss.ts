/**
 * pg-boss 12's side of bench/scale.ts's dispatch race, in its own process: installs its schema in
 * the database at job.url, queues `runs` no-op jobs, says `{"ready"}`, and on "go" (stdin) works
 * them with `workers` concurrent workers until every job is completed, then says `{"done"}` with
 * its seconds and its own CPU. "exit" stops it.
 *
 * Settings: `work` with localConcurrency = workers, batchSize 1 (each worker fetches and completes
 * one job at a time, as Rota's claim + finish), pollingIntervalSeconds and notifyPollingIntervalSeconds 0.5 (their minimum), and
 * burstWhenReadyExceeds 1 (its minimum) with the queue statistics refreshed every second (their minimum), so a
 * worker fetches again at once while jobs wait instead of sleeping a polling interval after each
 * job. The queue has notify on and the instance useListenNotify. `BENCH_ANCHOR_BATCH=1` fetches
 * and completes jobs by batches instead (one worker, batchSize = workers, burstWhenBatchFull).
 */
import { createInterface } from 'node:readline';
import { PgBoss } from 'pg-boss';

const job = JSON.parse(process.argv[2] ?? '{}') as { url: string; runs: number; workers: number };
const batch = process.env.BENCH_ANCHOR_BATCH === '1';
const QUEUE = 'noop';
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const lines = createInterface({ input: process.stdin });
const stdin = lines[Symbol.asyncIterator]();
const expect = async (word: string) => {
  const { value } = await stdin.next();
  if (value !== word) throw new Error(`expected "${word}", read "${String(value)}"`);
};

const boss = new PgBoss({
  connectionString: job.url,
  max: job.workers + 2,
  useListenNotify: true,
  superviseIntervalSeconds: 1,
  monitorIntervalSeconds: 1,
  queueCacheIntervalSeconds: 1,
});
boss.on('error', (error: unknown) => process.stderr.write(`pg-boss: ${String(error)}\n`));
await boss.start();
await boss.createQueue(QUEUE, { notify: true });
for (let i = 0; i < job.runs; i += 1000)
  await boss.insert(
    QUEUE,
    Array.from({ length: Math.min(1000, job.runs - i) }, () => ({ data: {} })),
  );
// The burst trigger reads the queue statistics cache: let it see the backlog before "go", as a
// long-running instance would.
while (((await boss.getQueue(QUEUE))?.readyCount ?? 0) < job.runs)
  await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 1100));
const settings = batch
  ? `1 worker, batchSize ${job.workers}, burstWhenBatchFull, (notify)pollingIntervalSeconds 0.5, LISTEN/NOTIFY`
  : `localConcurrency ${job.workers}, batchSize 1, (notify)pollingIntervalSeconds 0.5, burstWhenReadyExceeds 1 (stats every 1 s), LISTEN/NOTIFY`;
say({ ready: true, settings });
await expect('go');

const cpuStart = process.cpuUsage();
const started = performance.now();
let handled = 0;
await boss.work(
  QUEUE,
  batch
    ? {
        batchSize: job.workers,
        burstWhenBatchFull: true,
        pollingIntervalSeconds: 0.5,
        notifyPollingIntervalSeconds: 0.5,
      }
    : {
        localConcurrency: job.workers,
        batchSize: 1,
        pollingIntervalSeconds: 0.5,
        notifyPollingIntervalSeconds: 0.5,
        burstWhenReadyExceeds: 1,
      },
  async (jobs) => {
    handled += jobs.length;
  },
);
const db = boss.getDb();
// Done when the last job is marked completed, not when its handler returns.
for (;;) {
  if (handled >= job.runs) {
    const left = (await db.executeSql(
      `select count(*) as left from pgboss.job where name = $1 and state <> 'completed'`,
      [QUEUE],
    )) as { rows: { left: string }[] };
    if (Number(left.rows[0]!.left) === 0) break;
  }
  await new Promise((r) => setTimeout(r, handled >= job.runs ? 5 : 20));
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuStart);
say({ done: true, jobs: handled, seconds, cpuMs: (cpu.user + cpu.system) / 1000 });
await expect('exit');
await boss.stop({ graceful: false });
lines.close(); // an open stdin would keep this process alive
