/**
 * Does `recover-password` take the same time whether or not the email has an account?
 * Known and unknown emails alternate, one request in flight, each from its own address and for its
 * own email (so no throttle answers; the address comes in X-Forwarded-For), over real HTTP on
 * loopback. Three runs: the outbox paused (the request path alone), left idle between requests
 * (outside the timing), and mailing in the background as in production.
 *
 *   node --import tsx bench/recover.ts            # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/recover.ts
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { users } from '../apps/server/src/db/schema/index.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';
import { hashPassword } from '../apps/server/src/lib/passwords.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 400);

const { database, label, drop } = await openBenchDatabase();
await database.migrate();
await seedDatabase(database.db, {
  adminAccess: 'admin',
  adminEmail: 'admin@localhost',
  adminPassword: 'bench-password-1',
});
const hash = await hashPassword('bench-password-1');
for (let start = 0; start < 2 * PAIRS; start += 500) {
  await database.db.insert(users).values(
    Array.from({ length: Math.min(500, 2 * PAIRS - start) }, (_, k) => ({
      access: `known${start + k}`,
      email: `known${start + k}@example.com`,
      name: `Known ${start + k}`,
      last_name: 'Bench',
      password_hash: hash,
    })),
  );
}
let sent = 0;
const app = await buildApp({
  config: {
    publicUrl: 'http://127.0.0.1',
    SMTP_URL: undefined,
    MAIL_FROM: 'x <x@x>',
    TRUST_PROXY: true,
  },
  db: database.db,
  webRoot: null,
  mailer: { send: () => Promise.resolve(void sent++) },
  secretBox: new SecretBox(randomBytes(32)),
  dataDir: os.tmpdir(),
  events: database.events,
  engine: { loop: false },
});
const outbox = app.services.auth.recoveryOutbox;

// Server-side time of each answer (request in → answer written): what a remote timer sees, without
// the in-process client being held up by the outbox's work on PGlite (same thread).
let lastServerMs = 0;
app.addHook('onResponse', async (_request, reply) => {
  lastServerMs = reply.elapsedTime;
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
let ip = 0;
async function recover(email: string): Promise<[client: number, server: number]> {
  ip++;
  const t0 = performance.now();
  const res = await fetch(`${address}/api/user/api/auth/v1/recover-password`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
    },
    body: JSON.stringify({ email }),
  });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`recover answered ${res.status}`);
  return [ms, lastServerMs];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(title: string, offset: number, settle: boolean) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const server = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < PAIRS; i++) {
    // Alternate which goes first, so neither always follows the other's background work.
    const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
    for (const kind of order) {
      const email =
        kind === 'known' ? `known${offset + i}@example.com` : `nobody${offset + i}@example.com`;
      const [clientMs, serverMs] = await recover(email);
      times[kind].push(clientMs);
      server[kind].push(serverMs);
      if (settle) {
        await new Promise((resolve) => setImmediate(resolve));
        await outbox.idle();
      }
    }
  }
  await outbox.idle();
  const f = (xs: number[]) => median(xs).toFixed(2);
  console.log(
    `${title.padEnd(44)} p50 client known ${f(times.known)} / unknown ${f(times.unknown)} ms; server known ${f(server.known)} / unknown ${f(server.unknown)} ms (n=${PAIRS} each)`,
  );
}

console.log(`${label}; ${os.cpus().length} × ${os.cpus()[0]?.model}; Node ${process.version}`);
await measure('warm-up', 0, true);
sent = 0;
await outbox.pause();
await measure('request path, outbox paused (mails after)', 0, false);
outbox.resume();
await outbox.idle();
await measure('request path (outbox idle between requests)', 0, true);
await measure('with the outbox mailing in the background', PAIRS, false);
console.log(`mails sent: ${sent} (expected ${3 * PAIRS})`);

await app.close();
await database.close();
await drop?.();
