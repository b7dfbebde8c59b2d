/**
 * The load side of bench/agents-fleet.ts, in its own process: `tokens.length` simulated agents,
 * each heartbeating every 10 s (spread evenly over the 10 s) on a kept-alive socket of its own,
 * and, with `claim`, each holding a claim long poll open (wait 25 s) on a second socket, as a
 * real agent does. argv[2] names a JSON job file. Prints `{"warm": true}` once every agent has beaten
 * once (the identity cache is then filled), then one JSON line of figures for what followed.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface Job {
  address: string;
  tokens: string[];
  seconds: number;
  claim: boolean;
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

function post(url: string, pool: http.Agent, token: string, body: object): Promise<number> {
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
        res.on('end', () => resolve(res.statusCode ?? 0));
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

let warm = false;
let stopping = false;
const latencies: number[] = [];
let errors = 0;
let warmErrors = 0;
let claims = 0;
let claimErrors = 0;
let firstError: string | undefined;

async function beat(token: string, pool: http.Agent) {
  const started = performance.now();
  try {
    const status = await post(`${AGENT}/heartbeat`, pool, token, { running: [] });
    if (status !== 200) throw new Error(String(status));
    if (warm) latencies.push(performance.now() - started);
  } catch (error) {
    firstError ??= String(error);
    if (warm) errors += 1;
    else warmErrors += 1;
  }
  return performance.now() - started;
}

async function longPolls(token: string) {
  const pool = new http.Agent({ keepAlive: true, maxSockets: 1 });
  while (!stopping) {
    try {
      const status = await post(`${AGENT}/claim`, pool, token, { wait_seconds: 25 });
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
  await sleep((i / n) * 10_000);
  if (job.claim) void longPolls(token);
  let next = performance.now();
  for (;;) {
    await beat(token, pool);
    if (!warm && --firstRound === 0) {
      // Every agent known: what follows is the steady state.
      warm = true;
      cpuStart = process.cpuUsage();
      wallStart = performance.now();
      setTimeout(() => {
        stopping = true;
        stopNow();
      }, job.seconds * 1000);
      process.stdout.write(`${JSON.stringify({ warm: true })}\n`);
    }
    next += 10_000;
    if (stopping) return;
    await sleep(Math.max(0, next - performance.now()));
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
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
process.stdout.write(
  `${JSON.stringify({
    agents: n,
    heartbeats: latencies.length,
    heartbeatsPerSecond: latencies.length / (wall / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: latencies.at(-1),
    errors,
    warmUpErrors: warmErrors,
    warmUpSeconds: (wallStart - start) / 1000,
    claims,
    claimErrors,
    firstError,
    seconds: wall / 1000,
    // % of one core: on a 2-core machine it competes with the server.
    clientCpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
  })}\n`,
);
process.exit(0);
