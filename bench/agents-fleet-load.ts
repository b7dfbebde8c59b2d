/**
 * The load side of bench/agents-fleet.ts, in its own process: `tokens.length` simulated agents,
 * each heartbeating every 10 s (spread evenly over the 10 s) on a kept-alive socket of its own,
 * and, with `claim`, each holding a claim long poll open (wait 25 s) on a second socket, as a
 * real agent does. argv[2] names a JSON job file. Prints `{"warm": true}` once every agent has beaten
 * once (the identity cache is then filled) and one more round of 10 s has passed, then one JSON line
 * of figures for what followed, with the warm-up round's own p99 and errors.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { AgentStreamClient } from './agent-stream-client.js';

interface Job {
  address: string;
  tokens: string[];
  seconds: number;
  claim: boolean;
  /**
   * Idle agents as this version's agent runs them against this version's server
   * (`claim_is_heartbeat`): no heartbeat, a claim long poll of one heartbeat interval (10 s) after
   * another on the agent's one socket. Its "heartbeat latency" is how much longer than 10 s a
   * claim took.
   */
  idle?: boolean;
  /**
   * Idle agents on the stream (hello's `stream`): one WebSocket each, no heartbeat, a claim of
   * one heartbeat interval after another as messages on it. Latency as for `idle`.
   */
  stream?: boolean;
  /** Sockets for heartbeats: agents share them round robin when fewer than the agents. */
  sockets: number;
}

/** argv[2]: the job's JSON file (20,000 tokens do not fit in one argument). */
const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Job;
const AGENT = `${job.address}/api/rota/agent/api/v1`;
let stopNow: () => void = () => {};
const stopped = new Promise<void>((resolve) => (stopNow = resolve));
/** Sleeps, but no later than the end of the measurement. */
const sleep = (ms: number) => Promise.race([new Promise((r) => setTimeout(r, ms)), stopped]);

const beatPools = Array.from(
  { length: Math.max(1, Math.min(job.sockets, job.tokens.length)) },
  () => new http.Agent({ keepAlive: true, maxSockets: 1, keepAliveMsecs: 30_000 }),
);

/** The answer's status, and whether the request went on a socket already open. */
function post(
  url: string,
  pool: http.Agent,
  token: string,
  body: object,
): Promise<{ status: number; reused: boolean }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: pool,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A heartbeat unanswered after 30 s is an error (the agent would try again).
    if (url.endsWith('/heartbeat'))
      req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.end(payload);
  });
}

/** The load's own stalls, which would show as heartbeat latency the server did not cause. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
/** Every agent has beaten once (the warm-up round is over). */
let warmUpDone = false;
/** Steady state: the round after the warm-up is over too. */
let warm = false;
let stopping = false;
const latencies: number[] = [];
const warmUpLatencies: number[] = [];
let newConnections = 0;
let errors = 0;
let warmErrors = 0;
let claims = 0;
let claimErrors = 0;
let firstError: string | undefined;

/** An idle agent's claim wait: one heartbeat interval, as this version's agent sends it. */
const IDLE_CLAIM_WAIT_SECONDS = 10;

/**
 * One heartbeat; for an idle agent (`job.idle`), one claim held IDLE_CLAIM_WAIT_SECONDS by the
 * server, of which the time beyond that wait is measured.
 */
async function beat(token: string, pool: http.Agent, stream: AgentStreamClient) {
  // A beat belongs to the steady state only if it started there.
  const measured = warm;
  const started = performance.now();
  try {
    const { status, reused } = job.stream
      ? await streamClaim(stream)
      : job.idle
        ? await post(`${AGENT}/claim`, pool, token, { wait_seconds: IDLE_CLAIM_WAIT_SECONDS })
        : await post(`${AGENT}/heartbeat`, pool, token, { running: [] });
    if (status !== 200) throw new Error(String(status));
    const claimed = job.idle || job.stream;
    if (claimed) claims += 1;
    const held = claimed ? IDLE_CLAIM_WAIT_SECONDS * 1000 : 0;
    const latency = Math.max(0, performance.now() - started - held);
    if (measured) latencies.push(latency);
    else if (!warmUpDone) warmUpLatencies.push(latency);
    if (measured && !reused) newConnections += 1;
  } catch (error) {
    firstError ??= String(error);
    if (measured) errors += 1;
    else if (!warmUpDone) warmErrors += 1;
    // An idle agent claims again at once: not in a loop of failures.
    if (job.idle || job.stream) await sleep(1000);
  }
}

/** One idle claim on the agent's stream (opened again if it closed). */
async function streamClaim(stream: AgentStreamClient) {
  const reused = stream.connected;
  const { status } = await stream.call('claim', { wait_seconds: IDLE_CLAIM_WAIT_SECONDS });
  return { status, reused };
}

async function longPolls(token: string) {
  const pool = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!stopping) {
    try {
      const { status } = await post(`${AGENT}/claim`, pool, token, { wait_seconds: 25 });
      if (status !== 200) throw new Error(String(status));
      claims += 1;
    } catch {
      if (stopping) return;
      claimErrors += 1;
      await sleep(1000);
    }
  }
}

const n = job.tokens.length;
const start = performance.now();
let firstRound = n;
const agents = job.tokens.map(async (token, i) => {
  const pool = beatPools[i % beatPools.length]!;
  const stream = new AgentStreamClient(job.address, token);
  await sleep((i / n) * 10_000);
  if (job.claim) void longPolls(token);
  let next = performance.now();
  for (;;) {
    await beat(token, pool, stream);
    if (--firstRound === 0) {
      // Every agent known. Agents whose first beat came late beat again at once (their schedule
      // stands), a burst that is still the warm-up: one more round of 10 s settles it, then
      // what follows is the steady state.
      warmUpDone = true;
      setTimeout(() => {
        warm = true;
        cpuStart = process.cpuUsage();
        loopDelay.enable();
        wallStart = performance.now();
        setTimeout(() => {
          stopping = true;
          stopNow();
        }, job.seconds * 1000);
        process.stdout.write(`${JSON.stringify({ warm: true })}\n`);
      }, 10_000);
    }
    next += 10_000;
    if (stopping) return;
    // An idle agent claims again at once: the claim itself took the 10 s.
    if (!job.idle && !job.stream) await sleep(Math.max(0, next - performance.now()));
    if (stopping) return;
  }
});
let cpuStart = process.cpuUsage();
let wallStart = performance.now();
// Agents still waiting on an answer 35 s after the end count as errors (timeouts above).
await Promise.race([
  Promise.all(agents),
  stopped.then(() => new Promise((r) => setTimeout(r, 35_000))),
]);
stopping = true;
const cpu = process.cpuUsage(cpuStart);
const wall = performance.now() - wallStart;
latencies.sort((a, b) => a - b);
warmUpLatencies.sort((a, b) => a - b);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const at = (q: number) => quantile(latencies, q);
process.stdout.write(
  `${JSON.stringify({
    agents: n,
    heartbeats: latencies.length,
    heartbeatsPerSecond: latencies.length / (wall / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1),
    errors,
    newConnections,
    warmUpP99Ms: quantile(warmUpLatencies, 0.99),
    warmUpErrors: warmErrors,
    warmUpSeconds: (wallStart - start) / 1000,
    claims,
    claimErrors,
    firstError,
    seconds: wall / 1000,
    // % of one core: on a 2-core machine it competes with the server.
    clientLoopDelayMaxMs: loopDelay.max / 1e6,
    clientCpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
  })}\n`,
);
process.exit(0);
