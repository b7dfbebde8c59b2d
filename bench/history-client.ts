/**
 * The load side of bench/history.ts, in its own process so its HTTP client never shares a
 * server's event loop. Reads {address, token, cases, rounds, users, pauseMs} from argv[2]
 * (JSON): for each case, `rounds` rounds in which `users` calls leave together, the next round
 * `pauseMs` after the round's last answer (people clicking at once). A `firstByte` case is timed
 * to its body's first chunk (a CSV export starting to download). Prints one JSON line a case.
 */
interface Case {
  name: string;
  path: string;
  body: object;
  firstByte?: boolean;
}
interface Job {
  address: string;
  token: string;
  rounds: number;
  users: number;
  pauseMs: number;
  cases: Case[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;

async function call(c: Case): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${job.address}${c.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${job.token}` },
    body: JSON.stringify(c.body),
  });
  if (res.status !== 200) throw new Error(`${c.path} answered ${res.status}: ${await res.text()}`);
  if (c.firstByte) {
    const reader = res.body!.getReader();
    await reader.read();
    const ms = performance.now() - started;
    await reader.cancel();
    return ms;
  }
  await res.arrayBuffer();
  return performance.now() - started;
}

for (const c of job.cases) {
  for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: job.users }, () => call(c)));
  const times: number[] = [];
  for (let round = 0; round < job.rounds; round++) {
    times.push(...(await Promise.all(Array.from({ length: job.users }, () => call(c)))));
    await new Promise((resolve) => setTimeout(resolve, job.pauseMs));
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  process.stdout.write(
    `${JSON.stringify({ name: c.name, p50: at(0.5), p99: at(0.99), max: at(1) })}\n`,
  );
}
