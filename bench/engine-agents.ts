/**
 * The load side of bench/engine.ts, in its own process so simulated agents do not share the
 * server's event loop or its CPU figure. argv[2] is a JSON job; each phase prints one JSON line.
 */
import http from 'node:http';
import { keepAlivePost } from './keep-alive-post.js';
import { AgentStreamClient } from './agent-stream-client.js';

interface Job {
  address: string;
  phase: 'heartbeats' | 'latency' | 'throughput';
  tokens: string[];
  adminToken: string;
  robotId: number;
  seconds: number;
  runs: number;
  /** Runs each agent may hold at once (it claims up to its free slots). */
  slots: number;
  /** Older agents: one `claim`, then one `finish`, per run. */
  classic: boolean;
  /**
   * The agent stream (one WebSocket per agent, calls as messages), as this version's agent
   * speaks to this version's server; false: every call over HTTP, as older agents do.
   */
  stream?: boolean;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const AGENT = `${job.address}/api/rota/agent/api/v1`;

// Plain node:http with kept-alive sockets: fetch costs several times the CPU a request, and this
// process stands in for agents that would each run on their own VM.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

const post = (url: string, token: string, body: object) =>
  keepAlivePost(keepAlive, url, token, body);

const streams = new Map<string, AgentStreamClient>();

/** An agent protocol call: on the agent's stream with `job.stream`, else over HTTP. */
async function call(op: string, token: string, body: object): Promise<unknown> {
  if (!job.stream || op === 'heartbeat') return post(`${AGENT}/${op}`, token, body);
  let stream = streams.get(token);
  if (!stream) streams.set(token, (stream = new AgentStreamClient(job.address, token)));
  const answer = await stream.call(op, body);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`stream answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body?.data;
}

/** Closes the streams, so the process can end. */
async function closeStreams() {
  for (const stream of streams.values()) await stream.close();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function heartbeats() {
  // Every agent once every 10 s, spread evenly, as a fleet settles into.
  const until = Date.now() + job.seconds * 1000;
  let sent = 0;
  let errors = 0;
  await Promise.all(
    job.tokens.map(async (token, i) => {
      await sleep((i / job.tokens.length) * 10_000);
      while (Date.now() < until) {
        const started = Date.now();
        await post(`${AGENT}/heartbeat`, token, { running: [] }).then(
          () => (sent += 1),
          () => (errors += 1),
        );
        await sleep(10_000 - (Date.now() - started));
      }
    }),
  );
  return { sent, errors };
}

type Run = { execution_id: number; attempt: number };

const result = (run: Run) => ({
  execution_id: run.execution_id,
  attempt: run.attempt,
  status: 'success',
  exit_code: 0,
  message: null,
});

/**
 * Agents that claim (long poll) and finish at once until `stop()` says so. `reached` is when
 * `target` runs were finished (the agents still waiting in a long poll then are not counted).
 */
function workers(
  tokens: string[],
  wait: number,
  stop: (finished: number) => boolean,
  target = Infinity,
) {
  let finished = 0;
  let reached = 0;
  const done = () => {
    finished += 1;
    if (finished === target) reached = performance.now();
  };
  // Older agents: claim one, finish it, again.
  const classic = async (token: string) => {
    while (!stop(finished)) {
      const run = (await call('claim', token, { wait_seconds: wait })) as Run | null;
      if (!run) continue;
      await call('finish', token, result(run));
      done();
    }
  };
  // Agents with slots: a claim takes up to the free slots; each slot, once its run is done,
  // sends the result asking for its next run in the same request.
  const slotted = async (token: string) => {
    let free = job.slots;
    const busy = new Set<Promise<void>>();
    const slot = async (first: Run) => {
      let run: Run | undefined = first;
      while (run) {
        const more = !stop(finished + 1);
        const answer = (await call('finish', token, {
          ...result(run),
          ...(more ? { claim: { wait_seconds: 0, max: 1 } } : {}),
        })) as { runs?: Run[] };
        done();
        run = answer.runs?.[0];
      }
      free += 1;
    };
    while (!stop(finished)) {
      if (free === 0) {
        await Promise.race(busy);
        continue;
      }
      const { runs } = (await call('claim-batch', token, {
        wait_seconds: wait,
        max: free,
      })) as { runs: Run[] };
      for (const run of runs) {
        free -= 1;
        const going = slot(run).finally(() => busy.delete(going));
        busy.add(going);
      }
    }
    await Promise.all(busy);
  };
  const loops = tokens.map(job.classic ? classic : slotted);
  return { done: Promise.all(loops), finished: () => finished, reached: () => reached };
}

async function latency() {
  // Agents already waiting; runs arrive one by one through "run now".
  let produced = 0;
  const pool = workers(job.tokens, 2, (finished) => produced >= job.runs && finished >= job.runs);
  await sleep(1000);
  const interval = (job.seconds * 1000) / job.runs;
  const started = Date.now();
  while (produced < job.runs) {
    await post(`${job.address}/api/rota/robot/api/v1/run`, job.adminToken, { id: job.robotId });
    produced += 1;
    const due = started + produced * interval;
    if (due > Date.now()) await sleep(due - Date.now());
  }
  await pool.done;
  return { produced, finished: pool.finished() };
}

async function throughput() {
  // The queue is full before the agents start: how fast can they drain it?
  const started = performance.now();
  const pool = workers(job.tokens, 1, (finished) => finished >= job.runs, job.runs);
  await pool.done;
  return { finished: pool.finished(), seconds: (pool.reached() - started) / 1000 };
}

const cpuStart = process.cpuUsage();
const wallStart = performance.now();
const outcome =
  job.phase === 'heartbeats'
    ? await heartbeats()
    : job.phase === 'latency'
      ? await latency()
      : await throughput();
await closeStreams();
const cpu = process.cpuUsage(cpuStart);
// The load generator's own CPU, % of one core: on a 2-core machine it competes with the server.
const clientCpuPercent = ((cpu.user + cpu.system) / 1000 / (performance.now() - wallStart)) * 100;
process.stdout.write(`${JSON.stringify({ ...outcome, clientCpuPercent })}\n`);
