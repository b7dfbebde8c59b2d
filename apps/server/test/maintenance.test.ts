import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';
import { RUN_API, executionOf, runNow, simulatedAgent } from './helpers/engine.js';

const M = '/api/rota/maintenance/api/v1';
const SCH = '/api/rota/scheduling/api/v1';
const START = '2026-12-07T12:00:00.000Z';

const clock = new FakeClock(new Date(START));
let t: TestApp;
let c: Tenants;
let vm: number;
let otherVm: number;
let agent: ReturnType<typeof simulatedAgent>;
let neighbour: ReturnType<typeof simulatedAgent>;
let robot: number;

beforeAll(async () => {
  t = await createTestApp({ clock });
  c = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
  vm = await createVm(c.admin, 'Maintenance VM');
  otherVm = await createVm(c.admin, 'Neighbour VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Maintenance agent', vm)).token);
  neighbour = simulatedAgent(t.app, (await createAgent(c.admin, 'Neighbour agent', otherVm)).token);
  expect((await agent.hello()).status).toBe(200);
  expect((await neighbour.hello()).status).toBe(200);
  robot = await createRobot(c.admin, 'Maintenance robot');
});
afterAll(async () => {
  await t?.close();
});

async function clearQueue() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now()
         where status in ('queued', 'processing')`,
  );
}

async function auditActions(entity: string) {
  const rows = await t.db.execute(
    sql`select action from audit_logs where entity = ${entity} order by audit_logs_id`,
  );
  const list = (rows as unknown as { rows?: { action: string }[] }).rows ?? rows;
  return (list as { action: string }[]).map((r) => r.action);
}

const show = async (as = c.admin) => {
  const res = await as.post(`${M}/show`, {});
  expect(res.status).toBe(200);
  return res.body.data as {
    scope: string;
    mode: string;
    message: string;
    started_by: string;
    started_at: string;
    vm_name: string | null;
    skipped: { rota_schedulings_id: number; scheduling_name: string; due_at: string }[];
  }[];
};

describe('maintenance input and permissions', () => {
  it('answers 400 with field errors in en and pt', async () => {
    const en = await c.admin.post(`${M}/start`, { scope: 'galaxy', mode: 'nap', message: ' ' });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'scope', message: expect.any(String) },
        { field: 'mode', message: expect.any(String) },
        { field: 'message', message: 'Required reason' },
      ]),
    );
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const noVm = await pt.post(`${M}/start`, { scope: 'vm', mode: 'drain', message: 'Patch' });
    expect(noVm.status).toBe(400);
    expect(noVm.body.errors).toEqual([{ field: 'rota_vms_id', message: 'VM obrigatória' }]);
    const badEnd = await pt.post(`${M}/end`, { scope: 'vm', rota_vms_id: 'x' });
    expect(badEnd.status).toBe(400);
    expect(badEnd.body.errors[0].field).toBe('rota_vms_id');
  });

  it('keeps the cluster to platform administrators and a VM to AGENTES.UPDATE of its client', async () => {
    const body = { scope: 'cluster', mode: 'drain', message: 'Upgrade' };
    expect((await c.other.post(`${M}/start`, body)).status).toBe(403);
    expect((await c.limited.post(`${M}/start`, body)).status).toBe(403);
    const onVm = { scope: 'vm', rota_vms_id: vm, mode: 'drain', message: 'Disk' };
    expect((await c.limited.post(`${M}/start`, onVm)).status).toBe(403);
    // Another client's VM answers as an absent one.
    expect((await c.other.post(`${M}/start`, onVm)).status).toBe(404);
    expect((await c.other.post(`${M}/end`, { scope: 'vm', rota_vms_id: vm })).status).toBe(404);
    expect(await show()).toEqual([]);
    expect((await c.admin.post(`${M}/end`, { scope: 'cluster' })).status).toBe(404);
  });
});

describe('drain over the cluster', () => {
  it('lets running runs finish, claims nothing new, says so to agents and robots, and resumes', async () => {
    await clearQueue();
    const running = await runNow(c.admin, { id: robot });
    const run = (await agent.claim())!;
    expect(run.execution_id).toBe(running);
    const start = await c.admin.post(`${M}/start`, {
      scope: 'cluster',
      mode: 'drain',
      message: 'Database upgrade',
    });
    expect(start.status).toBe(201);
    expect(start.body.message).toBe('Maintenance started');
    expect(start.body.data).toMatchObject({ scope: 'cluster', mode: 'drain', skipped: [] });
    expect(
      (await c.admin.post(`${M}/start`, { scope: 'cluster', mode: 'kill', message: 'x' })).status,
    ).toBe(409);

    const queued = await runNow(c.admin, { id: robot });
    const claim = await agent.post('/api/rota/agent/api/v1/claim', { wait_seconds: 0 });
    expect(claim.body).toEqual({ data: null, maintenance: true });
    expect(await neighbour.claimBatch(5)).toEqual([]);
    const beat = await agent.heartbeat([{ execution_id: running, attempt: run.attempt }]);
    expect(beat.body.data).toEqual({ cancel: [], stop: [], maintenance: true });
    expect((await agent.hello()).body.data.maintenance).toBe(true);
    const robotApi = client(t.app, { token: run.environment.ROTA_EXECUTION_TOKEN });
    expect((await robotApi.post(`${RUN_API}/status`, {})).body.data).toEqual({
      stop_requested: false,
      maintenance: true,
    });
    // The running run's result is taken; the claim riding on it takes nothing.
    const finish = await agent.finishRun(run, { wait_seconds: 0, max: 2 });
    expect(finish.status).toBe(200);
    expect(finish.body.data.runs ?? []).toEqual([]);
    expect((await executionOf(c.admin, running)).status).toBe('success');
    expect((await executionOf(c.admin, queued)).status).toBe('queued');

    const windows = await show(c.other);
    expect(windows).toHaveLength(1);
    expect(windows[0]).toMatchObject({
      scope: 'cluster',
      mode: 'drain',
      message: 'Database upgrade',
      started_at: START,
    });
    expect(windows[0]!.started_by).toMatch(/\S/);

    const end = await c.admin.post(`${M}/end`, { scope: 'cluster' });
    expect(end.status).toBe(202);
    expect(end.body.message).toBe('Maintenance ended');
    expect(await show()).toEqual([]);
    expect((await agent.claim())?.execution_id).toBe(queued);
    expect(await auditActions('maintenance')).toEqual(['maintenance_start', 'maintenance_end']);
  });
});

describe('schedulings during maintenance', () => {
  async function scheduling(name: string, missed_runs: 'run_once' | 'skip') {
    const res = await c.admin.post(`${SCH}/create`, {
      name,
      rota_robots_id: robot,
      trigger_type: 'interval',
      interval_minutes: 5,
      timeout_minutes: 10,
      missed_runs,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.rota_schedulings_id as number;
  }
  const queuedOf = async (id: number) => {
    const rows = await t.db.execute(
      sql`select count(*)::int as n from rota_executions
           where rota_schedulings_id = ${id} and status = 'queued'`,
    );
    const list = (rows as unknown as { rows?: { n: number }[] }).rows ?? rows;
    return (list as { n: number }[])[0]!.n;
  };

  it('lists due schedulings as skipped, queues nothing, then honours each missed-run policy', async () => {
    await clearQueue();
    clock.set(START);
    const once = await scheduling('Skipped once', 'run_once');
    const skip = await scheduling('Skipped skip', 'skip');
    await c.admin.post(`${M}/start`, { scope: 'cluster', mode: 'drain', message: 'Move racks' });
    clock.set(new Date(Date.parse(START) + 10 * 60_000));
    expect(await t.app.engine.queueDueSchedulings()).toBe(0);
    expect(await t.app.engine.queueDueSchedulings()).toBe(0);
    const [window] = await show();
    expect(window!.skipped.map((s) => s.scheduling_name).sort()).toEqual([
      'Skipped once',
      'Skipped skip',
    ]);
    // Tenancy: another client's view of the window lists none of Default's schedulings.
    expect((await show(c.other))[0]!.skipped).toEqual([]);
    expect(await queuedOf(once)).toBe(0);

    await c.admin.post(`${M}/end`, { scope: 'cluster' });
    await t.app.engine.queueDueSchedulings();
    expect(await queuedOf(once)).toBe(1);
    expect(await queuedOf(skip)).toBe(0);
    // The scheduling's history: each late occurrence is a missed run, with what its policy did.
    const missed = await t.db.execute(
      sql`select (data->>'rota_schedulings_id')::int as id, (data->>'ran')::boolean as ran
            from rota_alert_events where type = 'scheduling.missed'
             and (data->>'rota_schedulings_id')::int in (${once}, ${skip})
           order by 1`,
    );
    expect((missed as unknown as { rows?: unknown[] }).rows ?? missed).toEqual([
      { id: once, ran: true },
      { id: skip, ran: false },
    ]);
    await t.db.execute(
      sql`update rota_schedulings set active = false where rota_schedulings_id in (${once}, ${skip})`,
    );
  });
});

describe('stop and kill on one VM', () => {
  it('asks the runs on that VM to stop with a grace, or kills them; the neighbour claims on', async () => {
    await clearQueue();
    const first = await runNow(c.admin, { id: robot });
    const run = (await agent.claim())!;
    expect(run.execution_id).toBe(first);
    const start = await c.admin.post(`${M}/start`, {
      scope: 'vm',
      rota_vms_id: vm,
      mode: 'stop',
      message: 'Replace disk',
    });
    expect(start.status).toBe(201);
    expect(start.body.data).toMatchObject({ vm_name: 'Maintenance VM', scope: 'vm' });
    const beat = await agent.heartbeat([{ execution_id: first, attempt: run.attempt }]);
    expect(beat.body.data).toEqual({
      cancel: [first],
      stop: [{ execution_id: first, grace_seconds: 60 }],
      maintenance: true,
    });
    const next = await runNow(c.admin, { id: robot });
    expect(await agent.claim()).toBeNull();
    expect((await neighbour.claim())?.execution_id).toBe(next);
    expect((await neighbour.heartbeat([])).body.data.maintenance).toBeUndefined();
    expect((await show())[0]).toMatchObject({ scope: 'vm', vm_name: 'Maintenance VM' });
    expect(await show(c.other)).toEqual([]);
    expect((await c.limited.post(`${M}/end`, { scope: 'vm', rota_vms_id: vm })).status).toBe(403);
    expect((await c.admin.post(`${M}/end`, { scope: 'vm', rota_vms_id: vm })).status).toBe(202);

    // Kill: the agent is told to cancel without a grace.
    await clearQueue();
    const killed = await runNow(c.admin, { id: robot });
    const held = (await agent.claim())!;
    expect(held.execution_id).toBe(killed);
    await c.admin.post(`${M}/start`, {
      scope: 'vm',
      rota_vms_id: vm,
      mode: 'kill',
      message: 'Power cut',
    });
    const killBeat = await agent.heartbeat([{ execution_id: killed, attempt: held.attempt }]);
    expect(killBeat.body.data).toEqual({ cancel: [killed], stop: [], maintenance: true });
    await c.admin.post(`${M}/end`, { scope: 'vm', rota_vms_id: vm });
    expect(await auditActions('execution')).toEqual(expect.arrayContaining(['stop', 'cancel']));
  });
});
