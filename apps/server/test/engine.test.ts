import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaExecutions } from '../src/db/schema/index.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';
import { ACTIVITY, RUN_API, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { client } from './helpers/test-app.js';

let t: TestApp;
let c: Tenants;
let vmA: number;
let vmB: number;
let agentA: ReturnType<typeof simulatedAgent>;
let agentA2: ReturnType<typeof simulatedAgent>;
let agentB: ReturnType<typeof simulatedAgent>;

beforeAll(async () => {
  // A one-second lease so "agent lost" can be seen without waiting 30 s.
  t = await createTestApp({
    engine: {
      loop: false,
      timings: {
        leaseSeconds: 1,
        heartbeatSeconds: 10,
        claimWaitSeconds: 25,
        reapMarginSeconds: 0,
      },
    },
  });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  vmA = await createVm(c.admin, 'Engine VM A');
  vmB = await createVm(c.admin, 'Engine VM B');
  agentA = simulatedAgent(t.app, (await createAgent(c.admin, 'Agent A', vmA)).token);
  agentA2 = simulatedAgent(t.app, (await createAgent(c.admin, 'Agent A2', vmA)).token);
  agentB = simulatedAgent(t.app, (await createAgent(c.admin, 'Agent B', vmB)).token);
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether the run's lease is over by the database's clock, the one the reaper reads. */
async function leaseIsOver(id: number): Promise<boolean> {
  const [row] = await t.db
    .select({ over: sql<boolean>`${rotaExecutions.lease_expires_at} < now()` })
    .from(rotaExecutions)
    .where(eq(rotaExecutions.rota_executions_id, id));
  return row!.over;
}

/** Waits (bounded) until the lease is over: what the reaper waits for, instead of a guess at it. */
async function untilLeaseIsOver(id: number) {
  for (let i = 0; i < 400 && !(await leaseIsOver(id)); i += 1) await sleep(25);
  expect(await leaseIsOver(id)).toBe(true);
}

/** Nothing left in the queue between tests: cancel whatever waits. */
async function drainQueue() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
  );
}

describe('agent protocol', () => {
  it('refuses a missing or wrong agent token', async () => {
    expect((await client(t.app).post('/api/rota/agent/api/v1/hello', {})).status).toBe(401);
    const wrong = simulatedAgent(t.app, 'not-a-token');
    expect((await wrong.hello()).status).toBe(401);
  });

  it('runs a robot once: claim, logs, finish, and a repeated result counts once', async () => {
    const robot = await createRobot(c.admin, 'Engine robot success');
    const hello = await agentA.hello();
    expect(hello.status).toBe(200);
    expect(hello.body.data).toMatchObject({ name: 'Agent A', rota_vms_id: vmA, lease_seconds: 1 });

    const id = await runNow(c.admin, { id: robot, priority: 70 });
    const queued = await executionOf(c.admin, id);
    expect(queued.status).toBe('queued');

    const run = await agentA.claim();
    expect(run).toMatchObject({
      execution_id: id,
      attempt: 1,
      robot: { executor: 'node main.js' },
    });
    expect(run!.package).toBeNull();
    expect(run!.environment.ROTA_EXECUTION_ID).toBe(String(id));
    expect(run!.environment.ROTA_EXECUTION_TOKEN).toMatch(/^[\w-]{40,}$/);
    expect(await agentA.claim()).toBeNull();

    expect((await agentA.logs(id, 1, ['hello', 'world'])).body.data).toEqual({ cancel: false });
    // The same batch again (a retry after a lost answer) is stored once.
    await agentA.logs(id, 1, ['hello', 'world']);
    const logs = await c.admin.post(`${ACTIVITY}/logs`, { id });
    expect(logs.body.data.map((l: { line: string }) => l.line)).toEqual(['hello', 'world']);
    const after = await c.admin.post(`${ACTIVITY}/logs`, { id, after: logs.body.meta.last_seq });
    expect(after.body.data).toEqual([]);

    const finished = await agentA.finish(id, 1, 'success', 0);
    expect(finished.body.data).toEqual({ accepted: true });
    expect((await agentA.finish(id, 1, 'success', 0)).body.data).toEqual({ accepted: false });

    const done = await executionOf(c.admin, id);
    expect(done).toMatchObject({
      status: 'success',
      attempts: 1,
      exit_code: 0,
      rota_executor_name: 'Agent A',
    });
    expect(done.attempt_list).toEqual([
      expect.objectContaining({ attempt: 1, status: 'success', rota_executor_name: 'Agent A' }),
    ]);
    // The run token died with the run: a call with it is refused as stale, and counted.
    const robotApi = client(t.app, { token: run!.environment.ROTA_EXECUTION_TOKEN });
    const stale = await robotApi.post(`${RUN_API}/task/next`, {});
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('stale_attempt');
    expect((await executionOf(c.admin, id)).attempt_list[0]).toMatchObject({ refused_calls: 1 });
    expect(run!.environment.ROTA_ATTEMPT).toBe('1');
  });

  it('retries an application error while retries remain, never a business error', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot retry');
    const id = await runNow(c.admin, { id: robot, retries: 1 });
    let run = await agentA.claim();
    await agentA.finish(id, run!.attempt, 'application_error', 1, 'boom');
    expect((await executionOf(c.admin, id)).status).toBe('queued');
    run = await agentA.claim();
    expect(run).toMatchObject({ execution_id: id, attempt: 2 });
    await agentA.finish(id, 2, 'application_error', 1, 'boom again');
    const failed = await executionOf(c.admin, id);
    expect(failed).toMatchObject({
      status: 'application_error',
      attempts: 2,
      message: 'boom again',
    });
    expect(failed.attempt_list.map((a) => a.status)).toEqual([
      'application_error',
      'application_error',
    ]);

    const business = await runNow(c.admin, { id: robot, retries: 3 });
    run = await agentA.claim();
    await agentA.finish(business, run!.attempt, 'business_error', 3, 'no invoice');
    expect(await executionOf(c.admin, business)).toMatchObject({
      status: 'business_error',
      attempts: 1,
    });
    expect(await agentA.claim()).toBeNull();
  });

  it('claims the highest priority first, then the oldest, and only on allowed VMs', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot priority');
    const low = await runNow(c.admin, { id: robot, priority: 10 });
    const high = await runNow(c.admin, { id: robot, priority: 90 });
    const highLater = await runNow(c.admin, { id: robot, priority: 90 });
    const onB = await runNow(c.admin, { id: robot, priority: 100, rota_vms_id: vmB });
    const order = [];
    for (let i = 0; i < 3; i += 1) order.push((await agentA.claim())!.execution_id);
    expect(order).toEqual([high, highLater, low]);
    expect(await agentA.claim()).toBeNull();
    expect((await agentB.claim())!.execution_id).toBe(onB);
  });

  it('settles the run of a vanished agent as "agent lost" and retries it on another', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot lost');
    const id = await runNow(c.admin, { id: robot, retries: 1 });
    const run = await agentA.claim();
    expect(run!.execution_id).toBe(id);
    // A heartbeat renews the lease: even once the claim's lease is over, a beat gives it another…
    await untilLeaseIsOver(id);
    const beat = await agentA.heartbeat([{ execution_id: id, attempt: 1 }]);
    expect(beat.body.data.cancel).toEqual([]);
    expect(await leaseIsOver(id)).toBe(false);
    await t.app.engine.tick();
    expect((await executionOf(c.admin, id)).status).toBe('processing');
    // …and without one, the lease runs out.
    await untilLeaseIsOver(id);
    await t.app.engine.tick();
    const lost = await executionOf(c.admin, id);
    expect(lost.status).toBe('queued');
    expect(lost.attempt_list[0]).toMatchObject({
      status: 'application_error',
      message: 'agent lost',
    });
    const retried = await agentA2.claim();
    expect(retried).toMatchObject({ execution_id: id, attempt: 2 });
    // The lost agent's late result is refused (409) and recorded on its attempt, never
    // applied; the agent is told to stop.
    const late = await agentA.finish(id, 1, 'success', 0);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('stale_attempt');
    expect((await executionOf(c.admin, id)).attempt_list[0]).toMatchObject({
      status: 'application_error',
      message: 'agent lost',
      late_result: { status: 'success', exit_code: 0, message: null },
    });
    // The robot of the old attempt may not touch tasks any more either.
    const oldRobot = client(t.app, { token: run!.environment.ROTA_EXECUTION_TOKEN });
    expect((await oldRobot.post(`${RUN_API}/task/next`, {})).status).toBe(409);
    const newRobot = client(t.app, { token: retried!.environment.ROTA_EXECUTION_TOKEN });
    expect((await newRobot.post(`${RUN_API}/task/next`, {})).status).toBe(200);
    expect((await agentA.heartbeat([{ execution_id: id, attempt: 1 }])).body.data.cancel).toEqual([
      id,
    ]);
    await agentA2.finish(id, 2, 'success', 0);
    expect(await executionOf(c.admin, id)).toMatchObject({ status: 'success', attempts: 2 });
  });

  it('cancels a queued run at once and a running one through its agent', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot cancel');
    const queued = await runNow(c.admin, { id: robot });
    const res = await c.admin.post(`${ACTIVITY}/cancel`, { id: queued });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('Execution cancelled');
    expect((await executionOf(c.admin, queued)).status).toBe('cancelled');
    expect(await agentA.claim()).toBeNull();
    expect((await c.admin.post(`${ACTIVITY}/cancel`, { id: queued })).status).toBe(409);

    const running = await runNow(c.admin, { id: robot, retries: 2 });
    const run = await agentA.claim();
    expect((await c.admin.post(`${ACTIVITY}/cancel`, { id: running })).body.message).toBe(
      'Cancellation sent to the agent',
    );
    expect((await agentA.logs(running, run!.attempt, ['still going'])).body.data.cancel).toBe(true);
    expect(
      (await agentA.heartbeat([{ execution_id: running, attempt: 1 }])).body.data.cancel,
    ).toEqual([running]);
    // Killed by the agent: even an error result ends cancelled, not retried.
    await agentA.finish(running, 1, 'application_error', 143, 'killed');
    expect(await executionOf(c.admin, running)).toMatchObject({ status: 'cancelled', attempts: 1 });
  });

  it('wakes a waiting claim as soon as a run is queued', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot wake');
    const waiters = t.app.services.dispatch.waiters;
    const waiting = agentB.claim(20);
    // The claim found nothing and waits: only a wake-up can bring it this run now.
    for (let i = 0; i < 200 && waiters.size === 0; i += 1) await sleep(25);
    expect(waiters.size).toBe(1);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vmB });
    // Not woken, the claim would answer null when its 20 s are up.
    expect((await waiting)!.execution_id).toBe(id);
    expect(waiters.size).toBe(0);
  });

  it('keeps each client to its own executions', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot tenancy');
    const id = await runNow(c.admin, { id: robot });
    const otherVm = await createVm(c.other, 'Other engine VM');
    const otherAgent = simulatedAgent(
      t.app,
      (await createAgent(c.other, 'Other agent', otherVm)).token,
    );
    expect(await otherAgent.claim()).toBeNull();
    expect((await otherAgent.finish(id, 1, 'success', 0)).status).toBe(404);
    expect((await otherAgent.logs(id, 1, ['x'])).status).toBe(404);
    expect((await c.other.post(`${ACTIVITY}/show`, { id })).status).toBe(404);
    expect((await c.other.post(`${ACTIVITY}/cancel`, { id })).status).toBe(404);
    expect((await c.other.post('/api/rota/robot/api/v1/run', { id: robot })).status).toBe(404);
    const theirs = await c.other.post(`${ACTIVITY}/index`, {});
    expect(theirs.body.data).toEqual([]);
  });

  it('needs HISTORIC for the activity and ROBOS.UPDATE to run a robot', async () => {
    const robot = await createRobot(c.admin, 'Engine robot perms');
    expect((await c.limited.post(`${ACTIVITY}/index`, {})).status).toBe(403);
    expect((await c.limited.post(`${ACTIVITY}/show`, { id: 1 })).status).toBe(403);
    expect((await c.limited.post(`${ACTIVITY}/cancel`, { id: 1 })).status).toBe(403);
    expect((await c.limited.post('/api/rota/robot/api/v1/run', { id: robot })).status).toBe(403);
    expect((await c.limited.post('/api/rota/scheduling/api/v1/run', { id: 1 })).status).toBe(403);
  });

  it('validates run now and the activity range', async () => {
    const robot = await createRobot(c.admin, 'Engine robot validation');
    const bad = await c.admin.post('/api/rota/robot/api/v1/run', {
      id: robot,
      priority: 0,
      timeout_minutes: 2000,
      retries: 11,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'priority',
      'retries',
      'timeout_minutes',
    ]);
    const noVm = await c.admin.post('/api/rota/robot/api/v1/run', {
      id: robot,
      rota_vms_id: 999999,
    });
    expect(noVm.status).toBe(400);
    expect(noVm.body.errors).toEqual([{ field: 'rota_vms_id', message: 'This VM does not exist' }]);
    await c.admin.put('/api/rota/robot/api/v1/update', { id: robot, active: false });
    expect((await c.admin.post('/api/rota/robot/api/v1/run', { id: robot })).status).toBe(409);

    const future = await c.admin.post(`${ACTIVITY}/index`, {
      startDate: '2020-01-01',
      endDate: '2999-01-01',
    });
    expect(future.status).toBe(400);
    expect(future.body.errors).toEqual([{ field: 'endDate', message: 'Max data' }]);
    const invalid = await c.admin.post(`${ACTIVITY}/export`, { startDate: '2020-02-30' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'startDate', message: 'Invalid data' },
        { field: 'endDate', message: 'Required data' },
      ]),
    );
  });
});

describe('scheduler', () => {
  it('queues each due scheduling once, and missed runs once, not once per interval', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot scheduled');
    const created = await c.admin.post('/api/rota/scheduling/api/v1/create', {
      name: 'Every hour',
      rota_robots_id: robot,
      interval_minutes: 60,
      timeout_minutes: 5,
      retries: 2,
      priority: 60,
      sleep: 0,
      active: true,
      vms: [vmB],
    });
    expect(created.status).toBe(201);
    const scheduling = created.body.data.rota_schedulings_id as number;
    const count = async () => {
      const res = await c.admin.post(`${ACTIVITY}/index`, { rota_schedulings_id: scheduling });
      return res.body.data as { status: string; trigger: string; retries: number }[];
    };

    await Promise.all([t.app.engine.tick(), t.app.engine.tick()]);
    expect(await count()).toHaveLength(1);
    expect((await count())[0]).toMatchObject({ trigger: 'schedule', retries: 2, status: 'queued' });
    await t.app.engine.tick();
    expect(await count()).toHaveLength(1);
    // Only the VMs of the scheduling may take it.
    expect(await agentA.claim()).toBeNull();
    const run = await agentB.claim();
    await agentB.finish(run!.execution_id, 1, 'success', 0);

    // Ten intervals missed while "every server was down": one run, and the next one is ahead.
    await t.db.execute(
      sql`update rota_schedulings set next_run_at = now() - interval '10 hours' where rota_schedulings_id = ${scheduling}`,
    );
    await t.app.engine.tick();
    await t.app.engine.tick();
    expect(await count()).toHaveLength(2);
    const [next] = (
      (await t.db.execute(
        sql`select next_run_at > now() + interval '59 minutes' as ahead from rota_schedulings where rota_schedulings_id = ${scheduling}`,
      )) as unknown as { rows: unknown[] }
    ).rows as { ahead: boolean }[];
    expect(next!.ahead).toBe(true);

    // A deleted scheduling no longer fires; "run now" on it is refused.
    await c.admin.post('/api/rota/scheduling/api/v1/delete', { id: scheduling });
    await t.db.execute(
      sql`update rota_schedulings set next_run_at = now() - interval '1 hour' where rota_schedulings_id = ${scheduling}`,
    );
    await drainQueue();
    await t.app.engine.tick();
    expect(await count()).toHaveLength(2);
    expect((await c.admin.post('/api/rota/scheduling/api/v1/run', { id: scheduling })).status).toBe(
      409,
    );
  });
});

describe('robot API', () => {
  it('hands each pending task to one run only, finishes it, and reads parameters', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot tasks');
    for (const label of ['first', 'second']) {
      const res = await c.admin.post('/api/rota/task/api/v1/create', {
        rota_robots_id: robot,
        label,
        data: {},
        expiration_date: new Date(Date.now() + 86_400_000).toISOString(),
      });
      expect(res.status).toBe(201);
    }
    await c.admin.post('/api/rota/parameter/api/v1/create', {
      name: 'API_URL',
      value: 'https://x',
    });
    await c.admin.post('/api/rota/parameter/api/v1/create', {
      name: 'API_KEY',
      password: 's3cret!',
    });
    await c.admin.post('/api/rota/env/api/v1/create', {
      title: 'ERP production',
      db_url: 'erp.lan',
      db_name: 'erp',
      db_user: 'robot',
      db_pass: 'erp-pass!',
      db_port: 5432,
      rota_token: 'erp-token!',
    });

    const one = await runNow(c.admin, { id: robot });
    const two = await runNow(c.admin, { id: robot });
    const runOne = await agentA.claim();
    const runTwo = await agentA2.claim();
    expect([runOne!.execution_id, runTwo!.execution_id].sort()).toEqual([one, two].sort());
    expect(runOne!.environment.ROTA_PARAM_API_URL).toBe('https://x');
    // Passwords never travel in the claim: the robot asks for them with its run token.
    expect(JSON.stringify(runOne)).not.toContain('s3cret!');

    const apiOne = client(t.app, { token: runOne!.environment.ROTA_EXECUTION_TOKEN });
    const apiTwo = client(t.app, { token: runTwo!.environment.ROTA_EXECUTION_TOKEN });
    const [a, b] = await Promise.all([
      apiOne.post(`${RUN_API}/task/next`, {}),
      apiTwo.post(`${RUN_API}/task/next`, {}),
    ]);
    const got = [a.body.data.label, b.body.data.label].sort();
    expect(got).toEqual(['first', 'second']);
    expect((await apiOne.post(`${RUN_API}/task/next`, {})).body.data).toBeNull();
    // A task another run holds cannot be finished by this one.
    const foreign = await apiOne.post(`${RUN_API}/task/finish`, {
      id: b.body.data.rota_tasks_id,
      status: 'success',
    });
    expect(foreign.status).toBe(409);
    expect(
      (
        await apiOne.post(`${RUN_API}/task/finish`, {
          id: a.body.data.rota_tasks_id,
          status: 'success',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await apiTwo.post(`${RUN_API}/task/finish`, {
          id: b.body.data.rota_tasks_id,
          status: 'business_error',
          business_error: 'Customer unknown',
        })
      ).status,
    ).toBe(200);
    const tasks = await c.admin.post('/api/rota/task/api/v1/index', { rota_robots_id: robot });
    expect(
      tasks.body.data
        .map((task: { status: string; business_error: string | null }) => [
          task.status,
          task.business_error,
        ])
        .sort(),
    ).toEqual([
      ['business_error', 'Customer unknown'],
      ['success', null],
    ]);

    const params = await apiOne.post(`${RUN_API}/parameter/index`, {});
    expect(params.body.data).toEqual([
      { name: 'API_KEY', value: 's3cret!', secret: true },
      { name: 'API_URL', value: 'https://x', secret: false },
    ]);
    // Environments the same way: secrets opened for the run, never in the claim.
    expect(JSON.stringify(runOne)).not.toContain('erp-pass!');
    const environments = await apiOne.post(`${RUN_API}/environment/index`, {});
    expect(environments.status).toBe(200);
    expect(environments.body.data).toEqual([
      {
        title: 'ERP production',
        db_url: 'erp.lan',
        db_name: 'erp',
        db_user: 'robot',
        db_pass: 'erp-pass!',
        db_port: 5432,
        rota_token: 'erp-token!',
        rota_api_url: null,
      },
    ]);
    // The run's token is worth nothing once its run has ended.
    await agentA.finish(runOne!.execution_id, 1, 'success', 0);
    expect((await apiOne.post(`${RUN_API}/environment/index`, {})).status).toBe(409);
  });
});

describe('activity and dashboard', () => {
  it('lists, exports and counts what ran', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Engine robot dashboard');
    const idle = await createRobot(c.admin, 'Engine robot idle');
    const id = await runNow(c.admin, { id: robot });
    const run = await agentA.claim();
    await agentA.finish(run!.execution_id, 1, 'timeout', null, 'took too long');
    const today = new Date();
    const day = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    const range = {
      startDate: day(new Date(today.getTime() - 9 * 86_400_000)),
      endDate: day(today),
    };

    const list = await c.admin.post(`${ACTIVITY}/index`, {
      ...range,
      search: 'dashboard',
      per_page: 5,
    });
    expect(list.body.meta).toMatchObject({ total: 1, per_page: 5 });
    expect(list.body.data[0]).toMatchObject({
      execution_id: id,
      rota_robots_name: 'Engine robot dashboard',
      status: 'timeout',
    });
    expect(list.body.data[0].duration_ms).toBeGreaterThanOrEqual(0);

    const csv = await c.admin.post(`${ACTIVITY}/export`, { ...range, rota_robots_id: robot });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = String(csv.body).trim().split('\r\n');
    // trim() also drops the BOM.
    expect(lines[0]).toMatch(/^Execution ID,Process name,Executor/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('took too long');

    const dash = await c.admin.post('/api/rota/dashboard/api/v1/index', range);
    expect(dash.status).toBe(200);
    const data = dash.body.data;
    expect(data.per_day).toHaveLength(10);
    expect(data.categories.failure).toBeGreaterThanOrEqual(1);
    expect(data.categories.idle).toBeGreaterThanOrEqual(1);
    expect(
      data.categories.process +
        data.categories.failure +
        data.categories.others +
        data.categories.idle,
    ).toBe(data.totals.robots);
    expect(data.failing_robots).toEqual(
      expect.arrayContaining([expect.objectContaining({ rota_robots_id: robot, failures: 1 })]),
    );
    expect(data.agents.active).toBeGreaterThanOrEqual(1);
    void idle;
    const otherDash = await c.other.post('/api/rota/dashboard/api/v1/index', range);
    expect(otherDash.body.data.totals.executions).toBe(0);
  });
});
