/**
 * The built console served by Rota's app in this process, on the bench database (PGlite in
 * memory unless BENCH_DATABASE_URL), with the seeded administrator signed in: what the browser
 * benchmarks (lighthouse.ts, profile-page.ts) load their pages from.
 */
import { randomBytes } from 'node:crypto';
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
