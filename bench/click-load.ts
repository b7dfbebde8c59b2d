/**
 * Users clicking at once on the list pages: `users` requests leave together, each on its
 * own kept-alive connection, and the next round leaves `pauseMs` after the last answer of this
 * one, as people who click and then read the page. Unlike autocannon's back-to-back load, no
 * request waits behind the previous user's next one, so the latency is a click's, not a queue's.
 *
 *   node --import tsx bench/click-load.ts <url> <token> <json body> <users> <rounds> <pauseMs>
 *
 * Prints one JSON line: samples, p50, p99 and max in ms, errors (non-2xx or failed requests).
 * Run in its own process by bench/api-overhead.ts, so the load never shares a server's loop.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [url, token, body, usersArg, roundsArg, pauseArg] = process.argv.slice(2);
const users = Number(usersArg);
const rounds = Number(roundsArg);
const pauseMs = Number(pauseArg);
const target = new URL(url!);
const payload = Buffer.from(body!);
const agent = new http.Agent({ keepAlive: true, maxSockets: users });

function click(): Promise<{ ms: number; ok: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': payload.length,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            ms: performance.now() - started,
            ok: response.statusCode !== undefined && response.statusCode < 300,
          }),
        );
      },
    );
    request.on('error', () => resolve({ ms: performance.now() - started, ok: false }));
    request.end(payload);
  });
}

const latencies: number[] = [];
let errors = 0;
for (let round = 0; round < rounds; round++) {
  const answers = await Promise.all(Array.from({ length: users }, click));
  for (const { ms, ok } of answers) {
    if (ok) latencies.push(ms);
    else errors += 1;
  }
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
process.stdout.write(
  `${JSON.stringify({ samples: latencies.length, p50: at(0.5), p99: at(0.99), max: at(1), errors })}\n`,
);
