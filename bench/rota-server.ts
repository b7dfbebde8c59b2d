/**
 * One Rota server for bench/scale.ts, in a process of its own so its CPU is measured alone: the
 * normal app (buildApp, as bench/engine.ts builds it) on the database at argv[2], already migrated
 * and seeded. Prints `{"address": …}` once listening; SIGTERM closes it.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { openPostgres } from '../apps/server/src/db/client.js';
import { buildApp } from '../apps/server/src/http/app.js';
import { tuneHeap } from '../apps/server/src/lib/heap-tuning.js';
import { SecretBox } from '../apps/server/src/lib/secret-box.js';

// The heap policy main.ts sets, so the race measures the server operators run.
tuneHeap();
const url = process.argv[2];
if (!url) throw new Error('usage: rota-server.ts <database url>');
const database = await openPostgres(url, Number(process.env.BENCH_POOL ?? 10));
const app = await buildApp({
  config: {
    publicUrl: 'http://127.0.0.1',
    SMTP_URL: undefined,
    MAIL_FROM: 'x <x@x>',
    TRUST_PROXY: false,
  },
  db: database.db,
  logDb: database.logDb,
  webRoot: null,
  secretBox: new SecretBox(randomBytes(32)),
  dataDir: os.tmpdir(),
  events: database.events,
});
const address = await app.listen({ port: 0, host: '127.0.0.1', backlog: 4096 });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
process.stdout.write(`${JSON.stringify({ address })}\n`);
