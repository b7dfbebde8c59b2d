/**
 * The load side of bench/fleet-mix.ts, in its own process: N unattended robots, each holding one
 * run on its own agent, doing per minute what a sizing guide counts for one robot. The load is
 * open-loop (calls fire at their planned instants whether or not earlier ones answered), so a slow
 * server shows as latency, not as a politely lower rate. It prints one JSON
 * line when a measured window starts and one with its figures when it ends. argv[2] names a JSON
 * file holding the job (thousands of tokens do not fit in one argument).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { keepAlivePost } from './keep-alive-post.js';

interface Job {
  address: string;
  /** Agent tokens, one robot each; the first `steps[i]` of them are active in step i. */
  tokens: string[];
  apiKey: string;
  steps: number[];
  warmupSeconds: number;
  seconds: number;
  sockets: number;
}

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
const AGENT = `${job.address}/api/rota/agent/api/v1`;
const RUN = `${job.address}/api/rota/run/api/v1`;
const TASK = `${job.address}/api/rota/task/api/v1`;

/** Per robot and minute. Heartbeats are the agent's own (every 10 s: a lease lasts 30 s). */
const PER_MINUTE = { log: 40, parameters: 6, task_add: 6, task_get: 6 } as const;
const HEARTBEAT_MS = 10_000;

type Op = 'log' | 'heartbeat' | 'parameters' | 'task_add' | 'task_next' | 'task_finish';
const OPS: Op[] = ['log', 'heartbeat', 'parameters', 'task_add', 'task_next', 'task_finish'];

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: job.sockets });

const post = (url: string, token: string, body: object) =>
  keepAlivePost(keepAlive, url, token, body);

interface Robot {
  agentToken: string;
  runToken: string;
  robotId: number;
  ref: { execution_id: number; attempt: number };
  seq: number;
  heartbeatPhase: number;
}

const robots: Robot[] = [];

/** Each new agent claims its run (setup, not measured). */
async function claimFor(tokens: string[]) {
  const batch = 64;
  for (let i = 0; i < tokens.length; i += batch) {
    await Promise.all(
      tokens.slice(i, i + batch).map(async (token) => {
        const data = (await post(`${AGENT}/claim`, token, { wait_seconds: 0 })) as {
          execution_id: number;
          attempt: number;
          robot: { rota_robots_id: number };
          environment: Record<string, string>;
        } | null;
        if (!data) throw new Error('a fleet agent found no queued run');
        robots.push({
          agentToken: token,
          runToken: data.environment.ROTA_EXECUTION_TOKEN!,
          robotId: data.robot.rota_robots_id,
          ref: { execution_id: data.execution_id, attempt: data.attempt },
          seq: 0,
          heartbeatPhase: Math.random() * HEARTBEAT_MS,
        });
      }),
    );
  }
}

const EXPIRES = new Date(Date.now() + 30 * 86_400_000).toISOString();
const LINE = 'Invoice 000000 read from the supplier portal; 12 fields extracted, total checked';

class Window {
  readonly latencies = new Map<Op, number[]>(OPS.map((op) => [op, []]));
  readonly errors = new Map<Op, number>(OPS.map((op) => [op, 0]));
  firstError: string | null = null;
  /** How late the loader fired calls against their plan: its own lag, not the server's. */
  readonly lag: number[] = [];
  measuring = false;

  async timed<T>(op: Op, call: () => Promise<T>): Promise<T | undefined> {
    const started = performance.now();
    try {
      const answer = await call();
      if (this.measuring) this.latencies.get(op)!.push(performance.now() - started);
      return answer;
    } catch (error) {
      if (this.measuring) {
        this.errors.set(op, this.errors.get(op)! + 1);
        this.firstError ??= String(error);
      }
      return undefined;
    }
  }
}

function act(
  window: Window,
  robot: Robot,
  op: 'log' | 'parameters' | 'task_add' | 'task_get' | 'heartbeat',
) {
  switch (op) {
    case 'log':
      robot.seq += 1;
      return window.timed('log', () =>
        post(`${AGENT}/logs`, robot.agentToken, {
          ...robot.ref,
          lines: [{ seq: robot.seq, stream: 'stdout', line: LINE, at: new Date().toISOString() }],
        }),
      );
    case 'heartbeat':
      return window.timed('heartbeat', () =>
        post(`${AGENT}/heartbeat`, robot.agentToken, { running: [robot.ref] }),
      );
    case 'parameters':
      return window.timed('parameters', () => post(`${RUN}/parameter/index`, robot.runToken, {}));
    case 'task_add':
      return window.timed('task_add', () =>
        post(`${TASK}/create`, job.apiKey, {
          rota_robots_id: robot.robotId,
          label: `Invoice ${robot.seq}`,
          data: { supplier: 'ACME', total: 1234.5, lines: 12 },
          expiration_date: EXPIRES,
        }),
      );
    case 'task_get':
      return (async () => {
        const next = await window.timed('task_next', () =>
          post(`${RUN}/task/next`, robot.runToken, {}),
        );
        const task = next as { rota_tasks_id?: number; id?: number } | null | undefined;
        const id = task?.rota_tasks_id ?? task?.id;
        if (id)
          await window.timed('task_finish', () =>
            post(`${RUN}/task/finish`, robot.runToken, { id, status: 'success' }),
          );
      })();
  }
}

interface Planned {
  at: number;
  robot: Robot;
  op: 'log' | 'parameters' | 'task_add' | 'task_get' | 'heartbeat';
}

function plan(active: Robot[], fromMs: number, ms: number): Planned[] {
  const planned: Planned[] = [];
  for (const robot of active) {
    for (const [op, perMinute] of Object.entries(PER_MINUTE) as [Planned['op'], number][]) {
      const count = Math.round((perMinute * ms) / 60_000);
      for (let i = 0; i < count; i += 1)
        planned.push({ at: fromMs + Math.random() * ms, robot, op });
    }
    for (
      let at =
        fromMs + ((((robot.heartbeatPhase - fromMs) % HEARTBEAT_MS) + HEARTBEAT_MS) % HEARTBEAT_MS);
      at < fromMs + ms;
      at += HEARTBEAT_MS
    )
      planned.push({ at, robot, op: 'heartbeat' });
  }
  return planned.sort((a, b) => a.at - b.at);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function drive(window: Window, planned: Planned[], origin: number, settle = true) {
  const pending = new Set<Promise<unknown>>();
  let next = 0;
  while (next < planned.length) {
    const now = performance.now() - origin;
    while (next < planned.length && planned[next]!.at <= now) {
      const item = planned[next++]!;
      if (window.measuring) window.lag.push(now - item.at);
      const going = act(window, item.robot, item.op);
      pending.add(going);
      void going.finally(() => pending.delete(going));
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  if (settle) await Promise.all(pending);
}

for (const n of job.steps) {
  await claimFor(job.tokens.slice(robots.length, n));
  const active = robots.slice(0, n);
  const window = new Window();
  const origin = performance.now();
  const warmupMs = job.warmupSeconds * 1000;
  const measureMs = job.seconds * 1000;
  // Warm-up then the measured window, one plan so heartbeats keep their 10 s rhythm.
  const planned = plan(active, 0, warmupMs + measureMs);
  const warm = planned.filter((p) => p.at < warmupMs);
  const measured = planned.filter((p) => p.at >= warmupMs);
  await drive(window, warm, origin, false);
  window.measuring = true;
  process.stdout.write(`${JSON.stringify({ event: 'window', n })}\n`);
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  await drive(window, measured, origin);
  window.measuring = false;
  const cpu = process.cpuUsage(cpuStart);
  const wallMs = performance.now() - wallStart;
  const ops: Record<
    string,
    { calls: number; errors: number; p50: number; p99: number; max: number }
  > = {};
  let calls = 0;
  for (const op of OPS) {
    const sorted = window.latencies.get(op)!.sort((a, b) => a - b);
    calls += sorted.length;
    ops[op] = {
      calls: sorted.length,
      errors: window.errors.get(op)!,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
    };
  }
  const lag = window.lag.sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      event: 'stats',
      n,
      seconds: wallMs / 1000,
      callsPerSecond: calls / (wallMs / 1000),
      ops,
      firstError: window.firstError,
      loaderLagP99: percentile(lag, 99),
      loaderCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
    })}\n`,
  );
  // Past the limit the backlog only grows: a larger step would measure the queue, not the server.
  if (Object.values(ops).some((op) => op.errors > 0 || op.p99 >= 100)) break;
}
keepAlive.destroy();
