import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rotaTasks } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { localDay } from '../src/lib/date-range.js';
import { RUN_API, ROBOT, runNow, simulatedAgent } from './helpers/engine.js';
import { openStream } from './helpers/event-stream.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const TASKS = '/api/rota/task/api/v1';
const DASHBOARD = '/api/rota/dashboard/api/v1/index';
const FUTURE = '2099-12-31';
const START = new Date('2030-03-04T10:00:00.000Z');
const MINUTE = 60_000;

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
let agent: ReturnType<typeof simulatedAgent>;

type Caller = Tenants['admin'];

beforeAll(async () => {
  clock = new FakeClock(START);
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
  const vm = await createVm(c.admin, 'SLA VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'SLA agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE).toISOString();

async function createRobot(as: Caller, name: string, settings: object = {}) {
  const res = await as.post(`${ROBOT}/create`, { name, executor: 'node main.js', ...settings });
  expect(res.status).toBe(201);
  return res.body.data as {
    rota_robots_id: number;
    task_sla_minutes: number | null;
    task_risk_minutes: number | null;
    task_retries: number;
  };
}

async function createTask(as: Caller, robot: number, extra: object = {}) {
  const res = await as.post(`${TASKS}/create`, {
    rota_robots_id: robot,
    label: 'SLA task',
    expiration_date: FUTURE,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.data as {
    rota_tasks_id: number;
    deadline: string | null;
    sla_state: string | null;
    status: string;
  };
}

async function show(id: number, as: Caller = c.admin) {
  const res = await as.post(`${TASKS}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    sla_state: string | null;
    finished_at: string | null;
    business_error: string | null;
    attempts: number;
  };
}

/** The SLA state last announced for a task (what the engine's duty marked). */
async function announcedOf(id: number) {
  const [row] = await t.db
    .select({ state: rotaTasks.sla_announced })
    .from(rotaTasks)
    .where(eq(rotaTasks.rota_tasks_id, id));
  return row!.state;
}

/** A run of `robot` claimed by the simulated agent: a client holding its run token. */
async function startRun(robot: number) {
  await runNow(c.admin, { id: robot });
  const run = await agent.claim();
  expect(run).not.toBeNull();
  return {
    id: run!.execution_id,
    api: client(t.app, { token: run!.environment.ROTA_EXECUTION_TOKEN }),
    async end() {
      await agent.finish(run!.execution_id, run!.attempt, 'success', 0);
    },
  };
}

describe('task SLAs', () => {
  it('moves on_time → at_risk → breached with the clock, and met/missed once finished', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA states', { task_risk_minutes: 10 });
    expect(robot).toMatchObject({ task_risk_minutes: 10, task_sla_minutes: null, task_retries: 0 });
    const none = await createTask(c.admin, robot.rota_robots_id);
    expect(none).toMatchObject({ deadline: null, sla_state: null });

    const task = await createTask(c.admin, robot.rota_robots_id, { deadline: at(30) });
    expect(task.deadline).toBe(at(30));
    expect(task.sla_state).toBe('on_time');
    clock.set(at(20));
    expect((await show(task.rota_tasks_id)).sla_state).toBe('on_time');
    clock.set(at(21));
    expect((await show(task.rota_tasks_id)).sla_state).toBe('at_risk');
    clock.set(at(31));
    expect((await show(task.rota_tasks_id)).sla_state).toBe('breached');

    // Finished late: missed, for good (time moving on changes nothing).
    const run = await startRun(robot.rota_robots_id);
    const taken = await run.api.post(`${RUN_API}/task/next`, {});
    expect(taken.body.data).toMatchObject({ rota_tasks_id: task.rota_tasks_id, deadline: at(30) });
    expect((await show(task.rota_tasks_id)).sla_state).toBe('breached');
    const finish = await run.api.post(`${RUN_API}/task/finish`, {
      id: task.rota_tasks_id,
      status: 'success',
    });
    expect(finish.status).toBe(200);
    const missed = await show(task.rota_tasks_id);
    expect(missed).toMatchObject({ status: 'success', sla_state: 'missed', finished_at: at(31) });

    // Finished in time: met.
    // (A deadline goes before none at the same priority.)
    const early = await createTask(c.admin, robot.rota_robots_id, { deadline: at(60) });
    expect((await run.api.post(`${RUN_API}/task/next`, {})).body.data.rota_tasks_id).toBe(
      early.rota_tasks_id,
    );
    await run.api.post(`${RUN_API}/task/finish`, {
      id: early.rota_tasks_id,
      status: 'business_error',
      business_error: 'No such invoice',
    });
    expect((await run.api.post(`${RUN_API}/task/next`, {})).body.data.rota_tasks_id).toBe(
      none.rota_tasks_id,
    );
    await run.api.post(`${RUN_API}/task/finish`, { id: none.rota_tasks_id, status: 'success' });
    clock.set(at(90));
    expect(await show(early.rota_tasks_id)).toMatchObject({
      status: 'business_error',
      sla_state: 'met',
      finished_at: at(31),
    });
    expect((await show(none.rota_tasks_id)).sla_state).toBeNull();
    await run.end();
  });

  it('gives a task without a deadline created_at + the robot’s SLA; a given deadline wins', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA default', {
      task_sla_minutes: 120,
      task_risk_minutes: 30,
    });
    const task = await createTask(c.admin, robot.rota_robots_id);
    expect(task.deadline).toBe(at(120));
    expect(task.sla_state).toBe('on_time');
    const own = await createTask(c.admin, robot.rota_robots_id, { deadline: at(5) });
    expect(own.deadline).toBe(at(5));
    expect(own.sla_state).toBe('at_risk');

    // Update: a new deadline, then none.
    const changed = await c.admin.put(`${TASKS}/update`, {
      id: task.rota_tasks_id,
      deadline: at(10),
      postpone_until: at(1),
    });
    expect(changed.status).toBe(204);
    expect(await show(task.rota_tasks_id)).toMatchObject({ sla_state: 'at_risk' });
    await c.admin.put(`${TASKS}/update`, { id: task.rota_tasks_id, deadline: null });
    const cleared = (await c.admin.post(`${TASKS}/show`, { id: task.rota_tasks_id })).body.data;
    expect(cleared).toMatchObject({ deadline: null, sla_state: null, postpone_until: at(1) });
  });

  it('filters by sla_state in SQL, within the client only', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA filter', { task_risk_minutes: 15 });
    const id = robot.rota_robots_id;
    const onTime = await createTask(c.admin, id, { deadline: at(60) });
    const risky = await createTask(c.admin, id, { deadline: at(10) });
    const late = await createTask(c.admin, id, { deadline: at(-5) });
    await createTask(c.admin, id);
    // Another client's breached task is never listed nor counted.
    const foreign = await createRobot(c.other, 'SLA filter', { task_risk_minutes: 15 });
    await createTask(c.other, foreign.rota_robots_id, { deadline: at(-5) });

    const list = async (sla_state: string, as: Caller = c.admin) => {
      const res = await as.post(`${TASKS}/index`, { sla_state, rota_robots_id: undefined });
      expect(res.status).toBe(200);
      return res.body as { data: { rota_tasks_id: number }[]; meta: { total: number } };
    };
    const ofRobot = async (sla_state: string) => {
      const res = await c.admin.post(`${TASKS}/index`, { sla_state, rota_robots_id: id });
      expect(res.status).toBe(200);
      return (res.body.data as { rota_tasks_id: number }[]).map((r) => r.rota_tasks_id);
    };
    expect(await ofRobot('on_time')).toEqual([onTime.rota_tasks_id]);
    expect(await ofRobot('at_risk')).toEqual([risky.rota_tasks_id]);
    expect(await ofRobot('breached')).toEqual([late.rota_tasks_id]);
    const breached = await list('breached');
    expect(breached.data.map((r) => r.rota_tasks_id)).toEqual([late.rota_tasks_id]);
    expect(breached.meta.total).toBe(1);
    expect((await list('breached', c.other)).meta.total).toBe(1);

    clock.set(at(55));
    expect(await ofRobot('at_risk')).toEqual([onTime.rota_tasks_id]);
    expect((await ofRobot('breached')).sort()).toEqual(
      [risky.rota_tasks_id, late.rota_tasks_id].sort(),
    );

    const bad = await c.admin.post(`${TASKS}/index`, { sla_state: 'late' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'sla_state', message: 'Invalid value' }]);
  });

  it('counts a full page of an SLA or status filter (the count joins the robot only for SLA)', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA full page', { task_risk_minutes: 15 });
    const id = robot.rota_robots_id;
    for (const minutes of [10, 12, 14]) await createTask(c.admin, id, { deadline: at(minutes) });
    await createTask(c.admin, id, { deadline: at(60) });
    const foreign = await createRobot(c.other, 'SLA full page other', { task_risk_minutes: 15 });
    await createTask(c.other, foreign.rota_robots_id, { deadline: at(10) });

    // One row a page: the page is full, so the list is counted rather than read off its end.
    const total = async (filter: object) => {
      const res = await c.admin.post(`${TASKS}/index`, {
        ...filter,
        rota_robots_id: id,
        per_page: 1,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      return (res.body.meta as { total: number }).total;
    };
    expect(await total({ sla_state: 'at_risk' })).toBe(3);
    expect(await total({ status: 'pending' })).toBe(4);
    expect(await total({ status: 'pending', sla_state: 'on_time' })).toBe(1);
    clock.set(at(13));
    expect(await total({ sla_state: 'breached' })).toBe(2);
    // Unfiltered by robot: every pending task of this client, none of the other's.
    const all = await c.admin.post(`${TASKS}/index`, { sla_state: 'breached', per_page: 1 });
    const own = await c.admin.post(`${TASKS}/index`, { sla_state: 'breached', per_page: 100 });
    expect(all.body.meta.total).toBe(own.body.data.length);
  });

  it('counts at-risk and breached tasks per robot on the dashboard', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA dashboard', { task_risk_minutes: 15 });
    const id = robot.rota_robots_id;
    await createTask(c.admin, id, { deadline: at(60) });
    await createTask(c.admin, id, { deadline: at(10) });
    await createTask(c.admin, id, { deadline: at(-5) });
    await createTask(c.admin, id, { deadline: at(-1) });
    const foreign = await createRobot(c.other, 'SLA dashboard other', { task_risk_minutes: 15 });
    await createTask(c.other, foreign.rota_robots_id, { deadline: at(-5) });

    // The range is about executions (its end not after today); SLA counts are about now.
    const today = localDay(new Date());
    const range = { startDate: today, endDate: today };
    const dashboard = async (as: Caller = c.admin) => {
      const res = await as.post(DASHBOARD, range);
      expect(res.status).toBe(200);
      return res.body.data.task_sla as {
        rota_robots_id: number;
        rota_robots_name: string;
        at_risk: number;
        breached: number;
      }[];
    };
    expect((await dashboard()).find((r) => r.rota_robots_id === id)).toEqual({
      rota_robots_id: id,
      rota_robots_name: 'SLA dashboard',
      at_risk: 1,
      breached: 2,
    });
    expect((await dashboard()).some((r) => r.rota_robots_id === foreign.rota_robots_id)).toBe(
      false,
    );
    // (The other client's breached task of the filter test is there too.)
    expect(await dashboard(c.other)).toContainEqual({
      rota_robots_id: foreign.rota_robots_id,
      rota_robots_name: 'SLA dashboard other',
      at_risk: 0,
      breached: 1,
    });
    clock.set(at(50));
    expect((await dashboard()).find((r) => r.rota_robots_id === id)).toMatchObject({
      at_risk: 1,
      breached: 3,
    });
  });
});

describe('SLA transitions as live events', () => {
  it('announces each at_risk and breached once, to the task’s client only', async () => {
    clock.set(START);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // Whatever earlier tests left at risk or breached is announced first, out of the way.
    await t.app.engine.announceTaskSla();
    const robot = await createRobot(c.admin, 'SLA live', { task_risk_minutes: 10 });
    const task = await createTask(c.admin, robot.rota_robots_id, { deadline: at(30) });
    const mine = await openStream(base, c.adminToken);
    const theirs = await openStream(base, c.otherToken);
    // Other tests' tasks come close too as the clock moves: only this one's events are read.
    const ofTask = (stream: typeof mine) =>
      stream.events
        .map((e) => e.data)
        .filter((e) => e.type === 'task' && e.rota_tasks_id === task.rota_tasks_id);
    const announce = async (count: number) => {
      await t.app.engine.announceTaskSla();
      // A second pass announces nothing more of it.
      await t.app.engine.announceTaskSla();
      await mine.waitFor(() => ofTask(mine).length === count);
      expect(ofTask(mine)).toHaveLength(count);
    };
    try {
      await announce(0);
      clock.set(at(25));
      await announce(1);
      clock.set(at(31));
      await announce(2);
      expect(ofTask(mine)).toEqual([
        {
          type: 'task',
          rota_tasks_id: task.rota_tasks_id,
          rota_robots_id: robot.rota_robots_id,
          sla_state: 'at_risk',
        },
        {
          type: 'task',
          rota_tasks_id: task.rota_tasks_id,
          rota_robots_id: robot.rota_robots_id,
          sla_state: 'breached',
        },
      ]);

      // The same deadline sent back (a form saving its label) announces nothing again.
      await c.admin.put(`${TASKS}/update`, { id: task.rota_tasks_id, deadline: at(30) });
      expect(await announcedOf(task.rota_tasks_id)).toBe('breached');
      await announce(2);
      // A new deadline is announced afresh when it comes close.
      await c.admin.put(`${TASKS}/update`, { id: task.rota_tasks_id, deadline: at(100) });
      expect(await announcedOf(task.rota_tasks_id)).toBeNull();
      await announce(2);
      clock.set(at(95));
      await announce(3);
      expect(ofTask(mine)[2]).toMatchObject({ sla_state: 'at_risk' });
      expect(
        theirs.events.some(
          (e) => e.data.type === 'task' && e.data.rota_robots_id === robot.rota_robots_id,
        ),
      ).toBe(false);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});

describe('task hand-out', () => {
  it('honours postpone_until and orders by priority, then deadline (none last), then age', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA order');
    const id = robot.rota_robots_id;
    const later = await createTask(c.admin, id, { priority: 90, postpone_until: at(10) });
    const lowNoDeadline = await createTask(c.admin, id, { priority: 10 });
    const lowLate = await createTask(c.admin, id, { priority: 10, deadline: at(300) });
    const lowSoon = await createTask(c.admin, id, { priority: 10, deadline: at(100) });
    const high = await createTask(c.admin, id, { priority: 80 });
    const lowNoDeadline2 = await createTask(c.admin, id, { priority: 10 });

    const run = await startRun(id);
    const next = async () => {
      const res = await run.api.post(`${RUN_API}/task/next`, {});
      expect(res.status).toBe(200);
      const task = res.body.data as { rota_tasks_id: number } | null;
      if (task)
        await run.api.post(`${RUN_API}/task/finish`, { id: task.rota_tasks_id, status: 'success' });
      return task?.rota_tasks_id ?? null;
    };
    expect(await next()).toBe(high.rota_tasks_id);
    expect(await next()).toBe(lowSoon.rota_tasks_id);
    expect(await next()).toBe(lowLate.rota_tasks_id);
    expect(await next()).toBe(lowNoDeadline.rota_tasks_id);
    expect(await next()).toBe(lowNoDeadline2.rota_tasks_id);
    // The postponed one is not due yet.
    expect(await next()).toBeNull();
    clock.set(at(10));
    expect(await next()).toBe(later.rota_tasks_id);
    await run.end();
  });

  it('puts an application error back to pending until the robot’s retries are spent', async () => {
    clock.set(START);
    const robot = await createRobot(c.admin, 'SLA retries', { task_retries: 2 });
    const task = await createTask(c.admin, robot.rota_robots_id, { deadline: at(60) });
    const run = await startRun(robot.rota_robots_id);
    const fail = async (message: string) => {
      const taken = await run.api.post(`${RUN_API}/task/next`, {});
      expect(taken.body.data.rota_tasks_id).toBe(task.rota_tasks_id);
      const res = await run.api.post(`${RUN_API}/task/finish`, {
        id: task.rota_tasks_id,
        status: 'application_error',
        message,
      });
      expect(res.status).toBe(200);
      return show(task.rota_tasks_id);
    };
    expect(await fail('timeout 1')).toMatchObject({
      status: 'pending',
      attempts: 1,
      business_error: 'timeout 1',
      finished_at: null,
      sla_state: 'on_time',
    });
    expect(await fail('timeout 2')).toMatchObject({ status: 'pending', attempts: 2 });
    clock.set(at(5));
    expect(await fail('timeout\u00003')).toMatchObject({
      status: 'application_error',
      attempts: 3,
      business_error: 'timeout\uFFFD3',
      finished_at: at(5),
      sla_state: 'met',
    });
    expect((await run.api.post(`${RUN_API}/task/next`, {})).body.data).toBeNull();

    // No retries: the first application error is final. Retry (console) reopens it.
    const once = await createRobot(c.admin, 'SLA no retries');
    const single = await createTask(c.admin, once.rota_robots_id);
    await run.end();
    const other = await startRun(once.rota_robots_id);
    await other.api.post(`${RUN_API}/task/next`, {});
    await other.api.post(`${RUN_API}/task/finish`, {
      id: single.rota_tasks_id,
      status: 'application_error',
    });
    expect(await show(single.rota_tasks_id)).toMatchObject({
      status: 'application_error',
      business_error: null,
      finished_at: at(5),
    });
    const retried = await c.admin.post(`${TASKS}/retry`, { ids: [single.rota_tasks_id] });
    expect(retried.body.data.count).toBe(1);
    expect(await show(single.rota_tasks_id)).toMatchObject({
      status: 'pending',
      finished_at: null,
    });
    await other.end();
  });
});

describe('bad input', () => {
  it('refuses bad robot SLA settings with the range in both languages', async () => {
    const bad = await c.admin.post(`${ROBOT}/create`, {
      name: 'SLA bad',
      executor: 'x',
      task_sla_minutes: 1e12,
      task_risk_minutes: 0,
      task_retries: 11,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'task_sla_minutes', message: 'Must be between 1 and 525600 minutes (one year)' },
        { field: 'task_risk_minutes', message: 'Must be between 1 and 525600 minutes (one year)' },
        { field: 'task_retries', message: 'Must be between 0 and 10' },
      ]),
    );
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const ptBad = await pt.post(`${ROBOT}/create`, {
      name: 'SLA bad',
      executor: 'x',
      task_retries: -1,
      task_sla_minutes: 1.5,
    });
    expect(ptBad.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'task_retries', message: 'Deve estar entre 0 e 10' },
        { field: 'task_sla_minutes', message: expect.any(String) },
      ]),
    );
    const robot = await createRobot(c.admin, 'SLA update');
    const upd = await c.admin.put(`${ROBOT}/update`, {
      id: robot.rota_robots_id,
      task_risk_minutes: 525_601,
    });
    expect(upd.status).toBe(400);
    const ok = await c.admin.put(`${ROBOT}/update`, {
      id: robot.rota_robots_id,
      task_sla_minutes: 525_600,
      task_retries: 10,
    });
    expect(ok.status).toBe(204);
    const shown = await c.admin.post(`${ROBOT}/show`, { id: robot.rota_robots_id });
    expect(shown.body.data).toMatchObject({ task_sla_minutes: 525_600, task_retries: 10 });
    await c.admin.put(`${ROBOT}/update`, { id: robot.rota_robots_id, task_sla_minutes: null });
    expect(
      (await c.admin.post(`${ROBOT}/show`, { id: robot.rota_robots_id })).body.data
        .task_sla_minutes,
    ).toBeNull();
  });

  it('refuses bad deadlines and postponements with field errors', async () => {
    const robot = await createRobot(c.admin, 'SLA bad dates');
    for (const value of [
      'tomorrow',
      '2030-02-30T10:00:00Z',
      '2030-01-01\u0000',
      'x'.repeat(5000),
      12,
    ]) {
      const res = await c.admin.post(`${TASKS}/create`, {
        rota_robots_id: robot.rota_robots_id,
        expiration_date: FUTURE,
        deadline: value,
        postpone_until: value,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'deadline', message: 'Invalid data' },
          { field: 'postpone_until', message: 'Invalid data' },
        ]),
      );
    }
    const badFinish = await client(t.app, { token: 'nope' }).post(`${RUN_API}/task/finish`, {
      id: 1,
      status: 'application_error',
    });
    expect(badFinish.status).toBe(401);
  });
});
