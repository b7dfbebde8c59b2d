import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { seedDatabase } from '../src/db/seed.js';
import { buildApp, type App } from '../src/http/app.js';
import { FakeClock } from '../src/lib/clock.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { openTestDatabase } from './helpers/database.js';
import { ACTIVITY, ROBOT, runNow } from './helpers/engine.js';
import { ADMIN, client, signIn } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Stalls (issue 14) with a real agent (apps/agent, through tsx) and real robot processes that
 * go quiet: flagged, or killed and ended "stalled". The engine's clock is a FakeClock moved
 * past `stall_minutes`, so nothing waits a minute.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'apps/agent/src/main.ts');
const MINUTE = 60_000;

let database: Database;
let dataDir: string;
let workDir: string;
let app: App;
let admin: ReturnType<typeof client>;
let agent: ChildProcess | undefined;
const clock = new FakeClock(new Date());

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
    clock,
    engine: {
      loop: true,
      intervalMs: 200,
      timings: { leaseSeconds: 5, heartbeatSeconds: 1, claimWaitSeconds: 25, reapMarginSeconds: 1 },
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
  const vm = await createVm(admin, 'Stall VM');
  const { token } = await createAgent(admin, 'Stall agent', vm);
  agent = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      AGENT_MAIN,
      '--server',
      base,
      '--work-dir',
      workDir,
      '--grace-seconds',
      '2',
    ],
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

async function show(id: number) {
  const res = await admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    stalled: boolean;
    message: string | null;
    attempts: number;
    attempt_list: { status: string; message: string | null }[];
  };
}

/** A robot that says one line, writes its shell's pid to `pidFile`, then sleeps in silence. */
async function quietRobot(name: string, pidFile: string, settings: object) {
  const res = await admin.post(`${ROBOT}/create`, {
    name,
    executor: `echo $$ > ${pidFile}; echo gone quiet; sleep 600`,
    ...settings,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_robots_id as number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('a real robot that goes quiet', () => {
  it('is flagged stalled, still processing, its process left running', async () => {
    const pidFile = path.join(workDir, 'flag.pid');
    const robot = await quietRobot('Quiet flag', pidFile, { stall_minutes: 1 });
    const id = await runNow(admin, { id: robot });
    await until('the robot to start', async () => existsSync(pidFile));
    expect((await show(id)).stalled).toBe(false);
    clock.advance(2 * MINUTE);
    await until('the run to be flagged', async () => (await show(id)).stalled);
    expect((await show(id)).status).toBe('processing');
    // The robot is left running; the console's cancel ends it.
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(isAlive(pid)).toBe(true);
    expect((await admin.post(`${ACTIVITY}/cancel`, { id })).status).toBeLessThan(300);
    await until('the run to end', async () => (await show(id)).status === 'cancelled');
  });

  it('with kill: the robot process dies and the run ends application_error "stalled"', async () => {
    const pidFile = path.join(workDir, 'kill.pid');
    // Longer than the clock has moved so far: only the advance below stalls it.
    const robot = await quietRobot('Quiet kill', pidFile, {
      stall_minutes: 10,
      stall_action: 'kill',
    });
    const id = await runNow(admin, { id: robot, retries: 0 });
    await until('the robot to start', async () => existsSync(pidFile));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    clock.advance(20 * MINUTE);
    const done = await until('the run to end', async () => {
      const e = await show(id);
      return e.status === 'processing' ? undefined : e;
    });
    expect(done).toMatchObject({ status: 'application_error', message: 'stalled', attempts: 1 });
    expect(done.attempt_list[0]).toMatchObject({ status: 'application_error', message: 'stalled' });
    await until('the robot process to die', async () => !isAlive(pid), 15_000);
  });
});
