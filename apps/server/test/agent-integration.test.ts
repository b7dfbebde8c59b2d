import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.js';
import { seedDatabase } from '../src/db/seed.js';
import { buildApp, type App } from '../src/http/app.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { openTestDatabase } from './helpers/database.js';
import { ACTIVITY, executionOf, runNow } from './helpers/engine.js';
import { openStream as openEventStream } from './helpers/event-stream.js';
import { robotPackage } from './helpers/robot-package.js';
import { ADMIN, client, signIn } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Real agent processes (apps/agent, through tsx) running a real robot package against the real
 * server over HTTP: what an operator's fleet does, minus the network between machines.
 */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'apps/agent/src/main.ts');
const ENGINE = {
  loop: true,
  intervalMs: 200,
  // Short leases and heartbeats so "agent lost" shows within seconds; long enough that a robot
  // of two seconds ends before its agent fences it when the server goes away (lease − 1.25 s).
  timings: { leaseSeconds: 5, heartbeatSeconds: 1, claimWaitSeconds: 25, reapMarginSeconds: 1 },
};

let database: Database;
let dataDir: string;
let secretKey: Buffer;
let app: App;
let port = 0;
let base: string;
let admin: ReturnType<typeof client>;
const agents: ChildProcess[] = [];
const workDirs: string[] = [];

async function startServer() {
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
    secretBox: new SecretBox(secretKey),
    dataDir,
    engine: ENGINE,
  });
  await app.listen({ host: '127.0.0.1', port });
  port = (app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
}

interface RunningAgent {
  process: ChildProcess;
  workDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startAgent(token: string, workDir?: string): Promise<RunningAgent> {
  const dir = workDir ?? (await mkdtemp(path.join(os.tmpdir(), 'rota-agent-')));
  if (!workDir) workDirs.push(dir);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', AGENT_MAIN, '--server', base, '--work-dir', dir, '--grace-seconds', '2'],
    {
      cwd: ROOT,
      env: { ...process.env, ROTA_AGENT_TOKEN: token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  agents.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { process: child, workDir: dir, output: () => output, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const finalStatus = (id: number) =>
  until(`execution ${id} to end`, async () => {
    const e = await executionOf(admin, id);
    return ['queued', 'processing'].includes(e.status) ? undefined : e;
  });

async function logLines(id: number) {
  const res = await admin.post(`${ACTIVITY}/logs`, { id, limit: 5000 });
  return (res.body.data as { line: string; stream: string; attempt: number }[]).map((l) => l.line);
}

async function createRobotWithPackage(name: string, executor: string) {
  const created = await admin.post('/api/rota/robot/api/v1/create', { name, executor });
  expect(created.status).toBe(201);
  const robot = created.body.data.rota_robots_id as number;
  const form = new FormData();
  form.set('rota_robots_id', String(robot));
  form.set('version', '1.0.0');
  form.set('file', new Blob([robotPackage()]), 'robot.tar.gz');
  const token = await signIn(app, ADMIN.access, ADMIN.password);
  const upload = await fetch(`${base}/api/rota/robot/version/api/v1/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(upload.status).toBe(201);
  const version = ((await upload.json()) as { data: { rota_robot_versions_id: number } }).data;
  const current = await admin.put('/api/rota/robot/version/api/v1/update', {
    id: version.rota_robot_versions_id,
    current: true,
  });
  expect(current.status).toBe(204);
  return robot;
}

let vm: number;
let robotId: number;

beforeAll(async () => {
  database = await openTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rota-data-'));
  secretKey = randomBytes(32);
  await seedDatabase(database.db, {
    adminAccess: ADMIN.access,
    adminEmail: ADMIN.email,
    adminPassword: ADMIN.password,
  });
  await startServer();
  admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
  vm = await createVm(admin, 'Integration VM');
  // One package for every mode: the executor picks the behaviour.
  robotId = await createRobotWithPackage('Integration success', 'node main.js success');
});

afterAll(async () => {
  for (const child of agents) child.kill('SIGKILL');
  await app?.close();
  await database?.close();
  for (const dir of [dataDir, ...workDirs]) await rm(dir, { recursive: true, force: true });
});

describe('a real agent running a real robot package', () => {
  let agent: RunningAgent;
  let agentId: number;

  beforeAll(async () => {
    const made = await createAgent(admin, 'Integration agent', vm);
    agentId = made.rota_nodes_id;
    agent = await startAgent(made.token);
  });

  it('keeps an idle agent active by its claims alone: no heartbeat, one stream', async () => {
    await until('the agent to say hello', async () => agent.output().includes('connected to'));
    // Calls on the stream are counted as HTTP answers are (/metrics), by method WS.
    const answered = vi.spyOn(app.metrics, 'httpResponse');
    const streamedSince = (from: number) =>
      answered.mock.calls
        .slice(from)
        .filter(([method]) => method === 'WS')
        .map(([, route]) => route ?? '');
    // Past its first heartbeat, sent as it starts, before its first claim: count from a claim on.
    await until('a claim on the stream', async () =>
      streamedSince(0).some((route) => route.endsWith('/claim')),
    );
    const from = answered.mock.calls.length;
    const requests: string[] = [];
    const onRequest = (req: IncomingMessage) => requests.push(req.url ?? '');
    const upgrades: string[] = [];
    const onUpgrade = (req: IncomingMessage) => upgrades.push(req.url ?? '');
    app.server.on('request', onRequest);
    app.server.on('upgrade', onUpgrade);
    await until(
      'four claims answered on the stream',
      async () => streamedSince(from).filter((route) => route.endsWith('/claim')).length >= 4,
    );
    app.server.off('request', onRequest);
    app.server.off('upgrade', onUpgrade);
    const streamed = streamedSince(from);
    answered.mockRestore();
    const claims = streamed.filter((route) => route.endsWith('/claim'));
    const beats = streamed.filter((route) => route.endsWith('/heartbeat'));
    // Heartbeats every second here, so claims wait one second each.
    expect(claims.length).toBeGreaterThanOrEqual(3);
    // A heartbeat tick may fall in the instant between two claims; four would be the old way.
    expect(beats.length).toBeLessThanOrEqual(1);
    // All of it on the one stream opened at the start: no HTTP request, no new stream.
    expect(requests).toEqual([]);
    expect(upgrades).toEqual([]);
    await app.services.presence.flush();
    const active = await admin.post('/api/rota/node/api/v1/index', {
      connectivity: 'active',
      per_page: 100,
    });
    expect(active.body.data.map((a: { rota_nodes_id: number }) => a.rota_nodes_id)).toContain(
      agentId,
    );
  });

  it('runs a robot to success and keeps its log lines', async () => {
    const id = await runNow(admin, { id: robotId });
    const done = await finalStatus(id);
    expect(done).toMatchObject({ status: 'success', attempts: 1, exit_code: 0 });
    const lines = await logLines(id);
    expect(lines).toEqual(
      expect.arrayContaining([
        `robot start success execution ${id}`,
        'a warning on stderr',
        'line 2 of the robot',
      ]),
    );
    const agents = await admin.post('/api/rota/node/api/v1/index', { search: 'Integration agent' });
    expect(agents.body.data[0]).toMatchObject({ connectivity: 'active', version: '3.0.1' });
  });

  it('keeps a robot that prints a NUL byte flowing: stored as U+FFFD, the run ends', async () => {
    // Once, this blocked the agent's slot for good: the log batch answered 500 forever.
    const created = await admin.post('/api/rota/robot/api/v1/create', {
      name: 'Integration NUL',
      executor: "printf 'bad\\000line\\n'; echo after",
    });
    expect(created.status).toBe(201);
    const id = await runNow(admin, { id: created.body.data.rota_robots_id as number });
    expect(await finalStatus(id)).toMatchObject({ status: 'success', attempts: 1 });
    expect(await logLines(id)).toEqual(expect.arrayContaining(['bad\uFFFDline', 'after']));
  });

  it('retries an exit 1 as an application error, and never an exit 3', async () => {
    const failing = await createRobotWithPackage('Integration fail', 'node main.js fail');
    const id = await runNow(admin, { id: failing, retries: 1 });
    const failed = await finalStatus(id);
    expect(failed).toMatchObject({ status: 'application_error', attempts: 2, exit_code: 1 });
    expect(failed.message).toBe('failed hard');
    expect(failed.attempt_list.map((a) => a.status)).toEqual([
      'application_error',
      'application_error',
    ]);

    const business = await createRobotWithPackage('Integration business', 'node main.js business');
    const second = await runNow(admin, { id: business, retries: 3 });
    expect(await finalStatus(second)).toMatchObject({
      status: 'business_error',
      attempts: 1,
      exit_code: 3,
      message: 'invoice rejected',
    });
  });

  it('kills the whole process tree on timeout', async () => {
    const hanging = await createRobotWithPackage('Integration hang', 'node main.js hang');
    // A two-second limit (the API speaks minutes; the row keeps seconds).
    const [row] = (
      (await database.db.execute(
        sql`insert into rota_executions (rota_clients_id, rota_robots_id, trigger, priority, timeout_seconds)
            select rota_clients_id, rota_robots_id, 'manual', 50, 2 from rota_robots
             where rota_robots_id = ${hanging}
            returning rota_executions_id as id, rota_clients_id as client`,
      )) as unknown as { rows: { id: number; client: number }[] }
    ).rows;
    app.services.work.announceQueued(row!.client, null, 1);
    const done = await finalStatus(row!.id);
    expect(done.status).toBe('timeout');
    const pidFile = path.join(agent.workDir, 'robots', String(hanging), 'grandchild.pid');
    expect(existsSync(pidFile)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await until('the grandchild to die', async () => !isAlive(pid), 10_000);
  });

  it('runs a robot that takes its tasks through the robot API, each once', async () => {
    const robot = await createRobotWithPackage('Integration tasks', 'node main.js tasks');
    for (const label of ['alpha', 'beta', 'gamma']) {
      const res = await admin.post('/api/rota/task/api/v1/create', {
        rota_robots_id: robot,
        label,
        data: {},
        expiration_date: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(res.status).toBe(201);
    }
    const id = await runNow(admin, { id: robot });
    expect(await finalStatus(id)).toMatchObject({ status: 'success' });
    const lines = await logLines(id);
    expect(lines.filter((l) => l.startsWith('task ')).sort()).toEqual([
      'task alpha',
      'task beta',
      'task gamma',
    ]);
    const tasks = await admin.post('/api/rota/task/api/v1/index', { rota_robots_id: robot });
    expect(tasks.body.data.map((t: { status: string }) => t.status)).toEqual([
      'success',
      'success',
      'success',
    ]);
  });

  it('keeps the PNG and the CSV a robot uploads through the robot API as evidence', async () => {
    const robot = await createRobotWithPackage('Integration evidence', 'node main.js evidence');
    const id = await runNow(admin, { id: robot });
    expect(await finalStatus(id)).toMatchObject({ status: 'success' });
    expect(await logLines(id)).toEqual(
      expect.arrayContaining(['uploaded screen.png', 'uploaded Report of run.csv']),
    );
    const list = await admin.post(`${ACTIVITY}/artifact/index`, { id });
    expect(list.status).toBe(200);
    const [png, csv] = list.body.data as { rota_artifacts_id: number; name: string }[];
    expect(list.body.data).toEqual([
      expect.objectContaining({ name: 'screen.png', media_type: 'image/png', size: 70 }),
      expect.objectContaining({ name: 'Report of run.csv', media_type: 'text/csv' }),
    ]);
    const token = await signIn(app, ADMIN.access, ADMIN.password);
    const image = await fetch(
      `${base}${ACTIVITY}/artifact/download?id=${png!.rota_artifacts_id}&inline=1`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const report = await fetch(
      `${base}${ACTIVITY}/artifact/download?id=${csv!.rota_artifacts_id}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(await report.text()).toBe('invoice,total\n42,10.50\n');
  });
});

/** Alive and not a zombie (nothing reaps orphans in some containers). */
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

describe('agents that vanish and servers that restart', () => {
  it('retries on another agent the run of an agent killed mid-run ("agent lost")', async () => {
    const lostVm = await createVm(admin, 'Lost VM');
    const slow = await createRobotWithPackage('Integration slow', 'node main.js slow 2');
    const first = await startAgent((await createAgent(admin, 'Doomed agent', lostVm)).token);
    const id = await runNow(admin, { id: slow, rota_vms_id: lostVm, retries: 1 });
    await until('the run to start', async () =>
      (await logLines(id)).some((l) => l.startsWith('tick')),
    );
    const live = await openEventStream(base, await signIn(app, ADMIN.access, ADMIN.password));
    first.process.kill('SIGKILL');
    await first.exited;
    // The kernel closed its stream: the run says so at once, long before its lease runs out.
    await live.waitFor(() =>
      live.events.some(
        (e) => e.data.type === 'execution' && e.data.execution_id === id && e.data.connection_lost,
      ),
    );
    await live.close();
    const [marked] = (
      (await database.db.execute(
        sql`select connection_lost_at < lease_expires_at as before_lease from rota_executions
             where rota_executions_id = ${id} and status = 'processing'`,
      )) as unknown as { rows: { before_lease: boolean }[] }
    ).rows;
    expect(marked).toEqual({ before_lease: true });
    const waiting = await executionOf(admin, id);
    expect(waiting).toMatchObject({ status: 'processing', attempts: 1 });
    expect(waiting.connection_lost_at).not.toBeNull();
    const second = await startAgent((await createAgent(admin, 'Rescue agent', lostVm)).token);
    const done = await finalStatus(id);
    expect(done).toMatchObject({
      status: 'success',
      attempts: 2,
      rota_executor_name: 'Rescue agent',
      connection_lost_at: null,
    });
    // The lost attempt ended when its connection did, not when the lease let the server see it.
    expect(done.attempt_list[0]).toMatchObject({
      status: 'application_error',
      message: 'agent lost',
    });
    expect(done.attempt_list[0]!.end_date).toBe(waiting.connection_lost_at);
    second.process.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('delivers once the result of a run that ended while the server was down', async () => {
    const downVm = await createVm(admin, 'Down VM');
    const slow = await createRobotWithPackage('Integration outage', 'node main.js slow 2');
    const { token } = await createAgent(admin, 'Patient agent', downVm);
    const agent = await startAgent(token);
    const id = await runNow(admin, { id: slow, rota_vms_id: downVm });
    await until('the run to start', async () =>
      (await logLines(id)).some((l) => l.startsWith('tick')),
    );
    // Every server goes away; the robot finishes meanwhile; the agent is restarted too.
    await app.close();
    await until('the result to wait in the outbox', async () => outboxHolds(agent.workDir), 15_000);
    agent.process.kill('SIGKILL');
    await agent.exited;
    // An outage longer than a lease, in the database's clock: the lease ran out and the reaper
    // last ran before it did. The restarted server gives the run one lease to be reported.
    await database.db.execute(
      sql`update rota_executions set lease_expires_at = now() - interval '1 second'
           where rota_executions_id = ${id}`,
    );
    await database.db.execute(
      sql`update engine_state set at = now() - interval '1 hour' where key = 'reaper'`,
    );
    await startServer();
    admin = client(app, { token: await signIn(app, ADMIN.access, ADMIN.password) });
    const again = await startAgent(token, agent.workDir);
    const done = await finalStatus(id);
    expect(done).toMatchObject({ status: 'success', attempts: 1 });
    expect(done.attempt_list).toHaveLength(1);
    // Lines shipped before the outage are there; those still in the killed agent's memory are
    // not (the outbox keeps results, not logs).
    expect((await logLines(id)).some((l) => l.startsWith('tick'))).toBe(true);
    await until('the outbox to empty', async () => !outboxHolds(again.workDir));
    again.process.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });
});

function outboxHolds(workDir: string): boolean {
  const dir = path.join(workDir, 'outbox');
  if (!existsSync(dir)) return false;
  return readdirSync(dir).some((f) => f.endsWith('.json'));
}
