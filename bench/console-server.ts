/**
 * The built console served by Rota's app in this process, on the bench database (PGlite in
 * memory unless BENCH_DATABASE_URL), with the seeded administrator signed in: what the browser
 * benchmarks (lighthouse.ts, profile-page.ts) load their pages from. BENCH_DATA=1 fills the
 * administrator's client with 40 robots and 1,000 executions over the last ten days (the
 * dashboard's default range), so the pages draw their figures, the chart and full lists instead
 * of their empty states.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import os from 'node:os';
import { openBenchDatabase } from './bench-database.js';
import { seedDatabase } from '../apps/server/src/db/seed.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';

const PASSWORD = 'bench-password-1';

export async function serveConsole(options: { port: number; webRoot: string }) {
  const { database, label, drop } = await openBenchDatabase();
  await database.migrate();
  await seedDatabase(database.db, {
    adminAccess: 'admin',
    adminEmail: 'admin@localhost',
    adminPassword: PASSWORD,
  });
  if (process.env.BENCH_DATA === '1') await fillClient(database.db);
  const app = await buildApp({
    config: {
      publicUrl: `http://127.0.0.1:${options.port}`,
      SMTP_URL: undefined,
      MAIL_FROM: 'x <x@x>',
      TRUST_PROXY: false,
    },
    db: database.db,
    webRoot: options.webRoot,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir: os.tmpdir(),
    events: database.events,
    engine: { loop: false },
  });
  const origin = await app.listen({ port: options.port, host: '127.0.0.1' });
  const signIn = await fetch(`${origin}/api/user/api/auth/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access: 'admin', password: PASSWORD }),
  });
  const { token } = (await signIn.json()) as { token: string };
  return {
    origin,
    /** The administrator's session token (the console's session cookie holds it). */
    token,
    /** What the database is, for the figures' heading. */
    label,
    async close() {
      await app.close();
      await database.close();
      await drop?.();
    },
  };
}

/** Robots and ended executions spread over the last ten days, in the seeded client. */
async function fillClient(db: Awaited<ReturnType<typeof openBenchDatabase>>['database']['db']) {
  await db.execute(sql`
    with client as (select rota_clients_id as id from rota_clients order by 1 limit 1),
    robots as (
      insert into rota_robots (rota_clients_id, name, executor, description)
      select client.id, 'Robô ' || n, 'node main.js', 'Bench robot ' || n
        from client, generate_series(1, 40) n
      returning rota_clients_id, rota_robots_id)
    insert into rota_executions
      (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds, status, queued_at,
       started_at, ended_at)
    select r.rota_clients_id, r.rota_robots_id, 'manual', 50, 300,
           (array['success', 'success', 'success', 'business_error', 'application_error'])[1 + n % 5],
           now() - make_interval(mins => n * 14), now() - make_interval(mins => n * 14),
           now() - make_interval(mins => n * 14 - 2)
      from generate_series(1, 1000) n
      join robots r on r.rota_robots_id = (select min(rota_robots_id) from robots) + n % 40`);
}
