/**
 * The load side of bench/lists.ts, in its own process so its HTTP client does not share the
 * server's event loop. Reads {address, token, cases, calls, users, pauseMs} from argv[2] (JSON),
 * prints one JSON line of latencies per case. One user: `calls` calls one after another. More:
 * `calls` rounds in which `users` calls leave together, the next round `pauseMs` after the
 * round's last answer (people clicking at once, as bench/click-load.ts).
 */
interface Job {
  address: string;
  token: string;
  calls: number;
  users: number;
  pauseMs: number;
  cases: { resource: string; base: string; kind: string; body: object }[];
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;

async function call(path: string, body: object) {
  const res = await fetch(`${job.address}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${job.token}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { meta?: { total: number } };
  if (res.status !== 200)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.meta?.total ?? 0;
}

for (const c of job.cases) {
  let total = 0;
  for (let i = 0; i < 20; i++) total = await call(`${c.base}/index`, c.body);
  const times: number[] = [];
  const timed = async () => {
    const t0 = performance.now();
    await call(`${c.base}/index`, c.body);
    times.push(performance.now() - t0);
  };
  for (let i = 0; i < job.calls; i++) {
    if (job.users <= 1) {
      await timed();
      continue;
    }
    await Promise.all(Array.from({ length: job.users }, timed));
    await new Promise((resolve) => setTimeout(resolve, job.pauseMs));
  }
  process.stdout.write(`${JSON.stringify({ resource: c.resource, kind: c.kind, total, times })}\n`);
}
