import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import {
  ADMIN,
  client,
  createTestApp,
  createTwoInstances,
  signIn,
  type TestApp,
} from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Work queues that start their robots (`trigger_type: queue`): while a robot has at
 * least `min_pending` due tasks, its queue scheduling keeps up to `max_concurrent` runs queued
 * or processing. Task creation reacts at once (NOTIFY, debounced); EngineLoop.tick re-checks.
 */
const SCHEDULING = '/api/rota/scheduling/api/v1';
const TASK = '/api/rota/task/api/v1';
const FUTURE = new Date(Date.now() + 30 * 86_400_000).toISOString();

type Caller = Tenants['admin'];

async function queueScheduling(
  as: Caller,
  robot: number,
  settings: {
    min_pending?: number;
    max_concurrent?: number;
    active?: boolean;
    vms?: number[];
    priority?: number;
  },
): Promise<number> {
  const res = await as.post(`${SCHEDULING}/create`, {
    name: `Queue ${robot} ${Math.random().toString(36).slice(2, 8)}`,
    rota_robots_id: robot,
    trigger_type: 'queue',
    timeout_minutes: 5,
    ...settings,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_schedulings_id as number;
}

async function createTasks(as: Caller, robot: number, n: number, extra: object = {}) {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await as.post(`${TASK}/create`, {
      rota_robots_id: robot,
      label: `Item ${i}`,
      data: {},
      expiration_date: FUTURE,
      ...extra,
    });
    expect(res.status).toBe(201);
    ids.push(res.body.data.rota_tasks_id as number);
  }
  return ids;
}

async function rowsOf<T>(t: TestApp, statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await t.db.execute(statement)) as unknown as { rows: T[] }).rows;
}

/** Runs of the scheduling by status. */
async function runsOf(t: TestApp, scheduling: number) {
  const rows = await rowsOf<{ status: string; n: number; trigger: string }>(
    t,
    sql`select status, trigger, count(*)::int as n from rota_executions
         where rota_schedulings_id = ${scheduling} group by status, trigger`,
  );
  const by = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  return {
    queued: by('queued'),
    processing: by('processing'),
    total: rows.reduce((sum, r) => sum + r.n, 0),
    triggers: [...new Set(rows.map((r) => r.trigger))],
  };
}

/** Ends the scheduling's queued or processing runs (as if they ran), freeing their slots. */
async function finishRuns(t: TestApp, scheduling: number, limit = 1000) {
  await t.db.execute(
    sql`update rota_executions set status = 'success', ended_at = now()
         where rota_executions_id in (
           select rota_executions_id from rota_executions
            where rota_schedulings_id = ${scheduling} and status in ('queued', 'processing')
            order by rota_executions_id limit ${limit})`,
  );
}

describe('queue trigger, one instance', () => {
  let t: TestApp;
  let c: Tenants;
  const clock = new FakeClock(new Date());

  beforeAll(async () => {
    t = await createTestApp({ clock });
    c = await setUpTenants(t);
  });
  afterAll(() => t.close());

  it('queues runs up to max_concurrent as tasks arrive, and refills slots that free up', async () => {
    const robot = await createRobot(c.admin, 'Queue robot A');
    const scheduling = await queueScheduling(c.admin, robot, { max_concurrent: 3 });
    await createTasks(c.admin, robot, 5);
    // Task creation reacts by itself (no tick).
    await expect.poll(async () => (await runsOf(t, scheduling)).queued).toBe(3);
    await t.app.engine.tick();
    expect(await runsOf(t, scheduling)).toMatchObject({
      queued: 3,
      total: 3,
      triggers: ['schedule'],
    });
    // Two runs end: the tick fills their slots again while tasks are still due.
    await finishRuns(t, scheduling, 2);
    await t.app.engine.tick();
    expect(await runsOf(t, scheduling)).toMatchObject({ queued: 3, total: 5 });
    // A processing run holds its slot too.
    await t.db.execute(
      sql`update rota_executions set status = 'processing', started_at = now()
           where rota_executions_id = (select min(rota_executions_id) from rota_executions
                                        where rota_schedulings_id = ${scheduling} and status = 'queued')`,
    );
    await t.app.engine.tick();
    expect(await runsOf(t, scheduling)).toMatchObject({ queued: 2, processing: 1, total: 5 });
  });

  it('fills the slot of a run that ends at once, without waiting for a tick', async () => {
    const robot = await createRobot(c.admin, 'Queue robot I');
    const vm = await createVm(c.admin, 'Queue slot VM');
    const { token } = await createAgent(c.admin, 'Queue slot agent', vm);
    // Top priority: the agent claims this run before the earlier tests' runs (any VM).
    const scheduling = await queueScheduling(c.admin, robot, {
      max_concurrent: 1,
      vms: [vm],
      priority: 100,
    });
    await createTasks(c.admin, robot, 2);
    await expect.poll(async () => (await runsOf(t, scheduling)).queued).toBe(1);
    const agent = simulatedAgent(t.app, token);
    const run = await agent.claim(0);
    expect(run!.robot.rota_robots_id).toBe(robot);
    // The run ends without taking a task: both are still due, so its slot is filled again.
    const done = await agent.finish(run!.execution_id, run!.attempt, 'success', 0);
    expect(done.status).toBe(200);
    await expect.poll(async () => (await runsOf(t, scheduling)).queued).toBe(1);
    expect((await runsOf(t, scheduling)).total).toBe(2);
  });

  it('starts no more runs than due tasks, and none once the tasks are gone', async () => {
    const robot = await createRobot(c.admin, 'Queue robot B');
    const scheduling = await queueScheduling(c.admin, robot, { max_concurrent: 5 });
    const tasks = await createTasks(c.admin, robot, 2);
    await expect.poll(async () => (await runsOf(t, scheduling)).queued).toBe(2);
    await t.app.engine.tick();
    expect((await runsOf(t, scheduling)).total).toBe(2);
    // The tasks are done (or deleted): runs that end are not replaced.
    await t.db.execute(
      sql`update rota_tasks set status = 'success' where rota_tasks_id = ${tasks[0]!}`,
    );
    expect((await c.admin.post(`${TASK}/delete`, { id: tasks[1]! })).status).toBeLessThan(300);
    await finishRuns(t, scheduling);
    await t.app.engine.tick();
    expect(await runsOf(t, scheduling)).toMatchObject({ queued: 0, total: 2 });
  });

  it('waits for min_pending due tasks', async () => {
    const robot = await createRobot(c.admin, 'Queue robot C');
    const scheduling = await queueScheduling(c.admin, robot, { min_pending: 3, max_concurrent: 2 });
    await createTasks(c.admin, robot, 2);
    await t.app.engine.tick();
    expect((await runsOf(t, scheduling)).total).toBe(0);
    await createTasks(c.admin, robot, 1);
    await expect.poll(async () => (await runsOf(t, scheduling)).queued).toBe(2);
  });

  it('counts only due tasks: postponed and expired ones start nothing until due', async () => {
    const robot = await createRobot(c.admin, 'Queue robot D');
    const scheduling = await queueScheduling(c.admin, robot, { max_concurrent: 4 });
    const later = new Date(clock.now().getTime() + 3_600_000).toISOString();
    await createTasks(c.admin, robot, 2, { postpone_until: later });
    const expired = await createTasks(c.admin, robot, 1);
    await t.db.execute(
      sql`update rota_tasks set status = 'expired' where rota_tasks_id = ${expired[0]!}`,
    );
    await t.app.engine.tick();
    expect((await runsOf(t, scheduling)).total).toBe(0);
    clock.advance(2 * 3_600_000);
    await t.app.engine.tick();
    expect(await runsOf(t, scheduling)).toMatchObject({ queued: 2, total: 2 });
    clock.set(new Date());
  });

  it('does nothing for inactive, deleted or time-triggered schedulings, or inactive robots', async () => {
    const robot = await createRobot(c.admin, 'Queue robot E');
    const inactive = await queueScheduling(c.admin, robot, { active: false, max_concurrent: 2 });
    const deleted = await queueScheduling(c.admin, robot, { max_concurrent: 2 });
    expect((await c.admin.post(`${SCHEDULING}/delete`, { id: deleted })).status).toBeLessThan(300);
    const interval = await c.admin.post(`${SCHEDULING}/create`, {
      name: 'Interval beside a queue',
      rota_robots_id: robot,
      trigger_type: 'interval',
      interval_minutes: 60,
      timeout_minutes: 5,
      active: false,
    });
    expect(interval.status).toBe(201);
    await createTasks(c.admin, robot, 3);
    await t.app.engine.tick();
    for (const id of [inactive, deleted, interval.body.data.rota_schedulings_id as number]) {
      expect((await runsOf(t, id)).total).toBe(0);
    }
    // An inactive robot is not started either.
    const idle = await createRobot(c.admin, 'Queue robot F');
    const onIdle = await queueScheduling(c.admin, idle, {});
    await t.db.execute(sql`update rota_robots set active = false where rota_robots_id = ${idle}`);
    await createTasks(c.admin, idle, 1);
    await t.app.engine.tick();
    expect((await runsOf(t, onIdle)).total).toBe(0);
  });

  it("never starts a robot for another client's tasks", async () => {
    const mine = await createRobot(c.admin, 'Queue robot G');
    const myScheduling = await queueScheduling(c.admin, mine, { max_concurrent: 2 });
    const theirs = await createRobot(c.other, 'Queue robot G');
    const theirScheduling = await queueScheduling(c.other, theirs, { max_concurrent: 2 });
    await createTasks(c.other, theirs, 2);
    await expect.poll(async () => (await runsOf(t, theirScheduling)).queued).toBe(2);
    await t.app.engine.tick();
    expect((await runsOf(t, myScheduling)).total).toBe(0);
    const [run] = await rowsOf<{ client: number }>(
      t,
      sql`select distinct rota_clients_id as client from rota_executions
           where rota_schedulings_id = ${theirScheduling}`,
    );
    expect(run!.client).toBe(c.otherClientId);
  });

  it('the periodic pass goes through every queue scheduling, a batch at a time', async () => {
    const robot = await createRobot(c.admin, 'Queue robot J');
    const first = await queueScheduling(c.admin, robot, {});
    // 250 more (over one batch of 200), written straight to the table.
    await t.db.execute(
      sql`insert into rota_schedulings (rota_clients_id, name, rota_robots_id, trigger_type,
                                        interval_minutes, timeout_minutes, next_run_at)
          select rota_clients_id, 'Bulk queue ' || n, rota_robots_id, 'queue', 60, 5, null
            from rota_schedulings, generate_series(1, 250) n
           where rota_schedulings_id = ${first}`,
    );
    await t.db.execute(
      sql`insert into rota_tasks (rota_clients_id, rota_robots_id, expiration_date)
          select ${c.defaultClientId}, ${robot}, now() + interval '1 day'
            from generate_series(1, 300)`,
    );
    await t.app.engine.tick();
    const [row] = await rowsOf<{ schedulings: number; runs: number }>(
      t,
      sql`select count(distinct rota_schedulings_id)::int as schedulings, count(*)::int as runs
            from rota_executions where rota_robots_id = ${robot} and status = 'queued'`,
    );
    expect(row).toEqual({ schedulings: 251, runs: 251 });
  });

  it('queues runs with the scheduling’s settings and VMs', async () => {
    const robot = await createRobot(c.admin, 'Queue robot H');
    const vm = await c.admin.post('/api/rota/vm/api/v1/create', {
      name: 'Queue VM',
      hostname: 'queue-vm.lan',
    });
    const vmId = vm.body.data.rota_vms_id as number;
    const res = await c.admin.post(`${SCHEDULING}/create`, {
      name: 'Queue with settings',
      rota_robots_id: robot,
      trigger_type: 'queue',
      timeout_minutes: 7,
      retries: 2,
      priority: 80,
      vms: [vmId],
    });
    expect(res.status).toBe(201);
    await createTasks(c.admin, robot, 1);
    await expect
      .poll(async () => (await runsOf(t, res.body.data.rota_schedulings_id)).queued)
      .toBe(1);
    const [run] = await rowsOf<Record<string, unknown>>(
      t,
      sql`select trigger, priority, timeout_seconds, retries, vm_ids from rota_executions
           where rota_schedulings_id = ${res.body.data.rota_schedulings_id as number}`,
    );
    expect(run).toEqual({
      trigger: 'schedule',
      priority: 80,
      timeout_seconds: 420,
      retries: 2,
      vm_ids: [vmId],
    });
  });
});

/**
 * Two instances on one PostgreSQL: both react to task creation (NOTIFY) and tick at once; the
 * scheduling's row lock keeps its runs at max_concurrent at every moment.
 */
describe.skipIf(!process.env.DATABASE_URL)('queue trigger, two instances on PostgreSQL', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('never keeps more than max_concurrent runs queued or processing', async () => {
    const one = client(first.app, { token: await signIn(first.app, ADMIN.access, ADMIN.password) });
    const two = client(second.app, {
      token: await signIn(second.app, ADMIN.access, ADMIN.password),
    });
    const robot = await createRobot(one, 'Two-instance queue robot');
    const MAX = 4;
    const scheduling = await queueScheduling(one, robot, { max_concurrent: MAX });
    for (let round = 0; round < 8; round += 1) {
      // Tasks created on both instances at once, both ticking meanwhile.
      await Promise.all([
        createTasks(one, robot, 5),
        createTasks(two, robot, 5),
        first.app.engine.tick(),
        second.app.engine.tick(),
        first.app.engine.tick(),
        second.app.engine.tick(),
      ]);
      const runs = await runsOf(first, scheduling);
      expect(runs.queued + runs.processing).toBeLessThanOrEqual(MAX);
      // Some runs end, so the next round competes for the freed slots.
      await finishRuns(first, scheduling, 2);
    }
    await Promise.all([first.app.engine.tick(), second.app.engine.tick()]);
    const runs = await runsOf(first, scheduling);
    expect(runs.queued + runs.processing).toBe(MAX);
  });
});
