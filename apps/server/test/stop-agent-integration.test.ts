import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { seedDatabase } from '../src/db/seed.js';
import { buildApp, type App } from '../src/http/app.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { openTestDatabase } from './helpers/database.js';
import { ACTIVITY, executionOf, runNow } from './helpers/engine.js';
import { ADMIN, client, signIn } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * "Stop gracefully, then kill" (issue 14) with a real agent (apps/agent, through tsx) and real
 * robot processes: SIGTERM first, the tree killed when the grace ends.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'apps/agent/src/main.ts');

let database: Database;
let dataDir: string;
let app: App;
let admin: ReturnType<typeof client>;
let agent: ChildProcess | undefined;
let workDir: string;

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-data-'));
  workDir = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-'));
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  app = await buildApp({
    config: {
      publicUrl: 'http://127.0.0.1',
      SMTP_URL: undefined,
      MAIL_FROM: 'r@test',
      TRUST_PROXY: false,
    },
    db: database.db,
    events: database.events,
    webRoot: null,
    secretBox: new SecretBox(randomBytes(32)),
    dataDir,
    engine: {
      loop: true,
      intervalMs: 200,
      timings: { leaseSeconds: 5, heartbeatSeconds: 1, claimWaitSeconds: 25, reapMarginSeconds: 1 },
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
  const vm = await createVm(admin, 'Stop VM');
  const { token } = await createAgent(admin, 'Stop agent', vm);
  agent = spawn(
    process.execPath,
    ['--import', 'tsx', AGENT_MAIN, '--server', base, '--work-dir', workDir],
    { cwd: ROOT, env: { ...process.env, ROTA_AGENT_TOKEN: token }, stdio: 'ignore' },
  );
});

afterAll(async () => {
  agent?.kill('SIGKILL');
  await app?.close();
  await database?.close();
  for (const dir of [dataDir, workDir]) await rm(dir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function logLines(id: number) {
  const res = await admin.post(`${ACTIVITY}/logs`, { id, limit: 5000 });
  return (res.body.data as { line: string }[]).map((l) => l.line);
}

/** A robot installed on the VM (no package): `exec node -e <source>`, so SIGTERM reaches it. */
async function robotRunning(name: string, source: string) {
  const created = await admin.post('/api/rota/robot/api/v1/create', {
    name,
    executor: `exec node -e "${source}"`,
  });
  expect(created.status).toBe(201);
  const id = await runNow(admin, { id: created.body.data.rota_robots_id as number, retries: 2 });
  await until(`robot ${name} to be ready`, async () => (await logLines(id)).includes('ready'));
  return id;
}

const finalStatus = (id: number) =>
  until(`execution ${id} to end`, async () => {
    const e = await executionOf(admin, id);
    return ['queued', 'processing'].includes(e.status) ? undefined : e;
  });

describe('stop gracefully, then kill', () => {
  it('a robot that traps SIGTERM and exits cleanly ends "stopped"', async () => {
    const id = await robotRunning(
      'Stop trap',
      "process.on('SIGTERM', () => { console.log('got SIGTERM, cleaning up'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000);",
    );
    const res = await admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 120 });
    expect(res.status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({
      status: 'cancelled',
      message: 'stopped',
      attempts: 1,
    });
    expect(await logLines(id)).toContain('got SIGTERM, cleaning up');
  });

  it('a robot that ignores SIGTERM is killed when its grace ends', async () => {
    const id = await robotRunning(
      'Stop ignore',
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('ready'); setInterval(() => {}, 1000);",
    );
    expect((await admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 1 })).status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({
      status: 'cancelled',
      message: 'killed after 1 s',
      attempts: 1,
    });
    expect(await logLines(id)).toContain('ignoring SIGTERM');
  });

  it('cancel stays a kill now', async () => {
    const id = await robotRunning(
      'Stop cancel',
      "process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('ready'); setInterval(() => {}, 1000);",
    );
    expect((await admin.post(`${ACTIVITY}/cancel`, { id })).status).toBe(202);
    expect(await finalStatus(id)).toMatchObject({ status: 'cancelled', message: 'cancelled' });
  });
});
