import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { ACTIVITY, RUN_API, ROBOT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { openStream } from './helpers/event-stream.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const DASHBOARD = '/api/rota/dashboard/api/v1/index';
const MINUTE = 60_000;

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
let agent: ReturnType<typeof simulatedAgent>;

beforeAll(async () => {
  // The database's now() stamps activity; the clock starts there and only moves forward.
  clock = new FakeClock(new Date());
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
  const vm = await createVm(c.admin, 'Stall VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Stall agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
// Each test counts from the database's now (activity is stamped with it).
beforeEach(() => clock.set(new Date()));
afterAll(async () => {
  await t?.close();
});

async function createRobot(name: string, settings: object = {}) {
  const res = await c.admin.post(`${ROBOT}/create`, {
    name,
    executor: 'node main.js',
    ...settings,
  });
  expect(res.status).toBe(201);
  return res.body.data as {
    rota_robots_id: number;
    stall_minutes: number | null;
    stall_action: string;
  };
}

async function startRun(robot: number, retries = 0) {
  const id = await runNow(c.admin, { id: robot, retries });
  const run = await agent.claim();
  expect(run?.execution_id).toBe(id);
  return {
    id,
    attempt: run!.attempt,
    api: client(t.app, { token: run!.environment.ROTA_EXECUTION_TOKEN }),
  };
}

async function show(id: number) {
  const res = await c.admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    stalled: boolean;
    progress_percent: number | null;
    progress_message: string | null;
    last_activity_at: string | null;
    message: string | null;
    attempts: number;
  };
}

async function stalledCount() {
  const today = new Date().toISOString().slice(0, 10);
  const res = await c.admin.post(DASHBOARD, { startDate: today, endDate: today });
  expect(res.status).toBe(200);
  return res.body.data.stalled as number;
}

describe('robot stall settings', () => {
  it('answers, accepts and clears stall_minutes and stall_action; refuses out of range', async () => {
    const robot = await createRobot('Stall settings');
    expect(robot).toMatchObject({ stall_minutes: null, stall_action: 'flag' });
    const set = await c.admin.put(`${ROBOT}/update`, {
      id: robot.rota_robots_id,
      stall_minutes: 5,
      stall_action: 'kill',
    });
    expect(set.status).toBe(204);
    const shown = await c.admin.post(`${ROBOT}/show`, { id: robot.rota_robots_id });
    expect(shown.body.data).toMatchObject({ stall_minutes: 5, stall_action: 'kill' });
    await c.admin.put(`${ROBOT}/update`, { id: robot.rota_robots_id, stall_minutes: null });
    const cleared = await c.admin.post(`${ROBOT}/show`, { id: robot.rota_robots_id });
    expect(cleared.body.data.stall_minutes).toBeNull();
    for (const bad of [0, 1441]) {
      const res = await c.admin.post(`${ROBOT}/create`, {
        name: `Bad stall ${bad}`,
        executor: 'x',
        stall_minutes: bad,
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { field: 'stall_minutes', message: 'Must be between 1 and 1440 minutes (one day)' },
      ]);
    }
    const action = await c.admin.post(`${ROBOT}/create`, {
      name: 'Bad action',
      executor: 'x',
      stall_action: 'explode',
    });
    expect(action.status).toBe(400);
    expect(action.body.errors[0].field).toBe('stall_action');
  });
});

describe('progress', () => {
  it('records percent and message, moves last activity; refuses bad input with field errors', async () => {
    const robot = await createRobot('Progress robot');
    const run = await startRun(robot.rota_robots_id);
    const started = await show(run.id);
    expect(started).toMatchObject({ progress_percent: null, progress_message: null });
    expect(started.last_activity_at).not.toBeNull();

    const ok = await run.api.post(`${RUN_API}/progress`, { percent: 40, message: 'Page 4 of 10' });
    expect(ok.status).toBe(200);
    expect(await show(run.id)).toMatchObject({
      progress_percent: 40,
      progress_message: 'Page 4 of 10',
      stalled: false,
    });
    // A field left out keeps its value.
    expect((await run.api.post(`${RUN_API}/progress`, { percent: 50 })).status).toBe(200);
    expect(await show(run.id)).toMatchObject({
      progress_percent: 50,
      progress_message: 'Page 4 of 10',
    });

    const cases: [object, string][] = [
      [{ percent: 101 }, 'percent'],
      [{ percent: -1 }, 'percent'],
      [{ percent: 2.5 }, 'percent'],
      [{ message: 'a\u0000b' }, 'message'],
      [{ message: 'x'.repeat(201) }, 'message'],
    ];
    for (const [body, field] of cases) {
      const res = await run.api.post(`${RUN_API}/progress`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    expect((await run.api.post(`${RUN_API}/progress`, { message: 'x'.repeat(200) })).status).toBe(
      200,
    );
    await agent.finish(run.id, run.attempt, 'success', 0);
    // The token of an ended run touches nothing (refused as a stale attempt).
    const late = await run.api.post(`${RUN_API}/progress`, { percent: 99 });
    expect(late.status).toBe(409);
    expect((await show(run.id)).progress_percent).toBe(50);
  });

  it('a run token moves only its own run', async () => {
    const robot = await createRobot('Two runs', { stall_minutes: 1 });
    const first = await startRun(robot.rota_robots_id);
    const second = await startRun(robot.rota_robots_id);
    clock.advance(2 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect((await first.api.post(`${RUN_API}/progress`, { percent: 70 })).status).toBe(200);
    expect(await show(first.id)).toMatchObject({ progress_percent: 70, stalled: false });
    expect(await show(second.id)).toMatchObject({ progress_percent: null, stalled: true });
    // Its body names no run: an id sent along is not part of the contract, and is ignored.
    await first.api.post(`${RUN_API}/progress`, { percent: 80, id: second.id });
    expect((await show(second.id)).progress_percent).toBeNull();
    await agent.finish(first.id, first.attempt, 'success', 0);
    await agent.finish(second.id, second.attempt, 'success', 0);
  });

  it('needs the run token of a processing run: no token, a made-up one, another client’s', async () => {
    expect((await client(t.app).post(`${RUN_API}/progress`, { percent: 1 })).status).toBe(401);
    const forged = client(t.app, { token: 'x'.repeat(43) });
    expect((await forged.post(`${RUN_API}/progress`, { percent: 1 })).status).toBe(401);
    // A console session token is not a run token.
    expect((await c.other.post(`${RUN_API}/progress`, { percent: 1 })).status).toBe(401);
  });
});

describe('stalls', () => {
  it('flags a quiet run once, clears it on activity, lists and counts it', async () => {
    const robot = await createRobot('Quiet robot', { stall_minutes: 5 });
    const run = await startRun(robot.rota_robots_id);
    const before = await stalledCount();

    clock.advance(4 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect((await show(run.id)).stalled).toBe(false);

    clock.advance(2 * MINUTE);
    expect(await t.app.engine.handleStalledRuns()).toBeGreaterThanOrEqual(1);
    expect(await show(run.id)).toMatchObject({ status: 'processing', stalled: true });
    // Once: a second pass finds nothing more of it.
    expect(await t.app.engine.handleStalledRuns()).toBe(0);
    expect(await stalledCount()).toBe(before + 1);

    const stalledList = await c.admin.post(`${ACTIVITY}/index`, { stalled: true, per_page: 100 });
    expect(stalledList.status).toBe(200);
    const ids = stalledList.body.data.map((e: { execution_id: number }) => e.execution_id);
    expect(ids).toContain(run.id);
    const quietList = await c.admin.post(`${ACTIVITY}/index`, { stalled: false, per_page: 100 });
    expect(quietList.body.data.map((e: { execution_id: number }) => e.execution_id)).not.toContain(
      run.id,
    );
    // Another client sees none of it.
    const theirs = await c.other.post(`${ACTIVITY}/index`, { stalled: true });
    expect(theirs.body.data).toEqual([]);

    // A log line is activity: the flag clears; the clock counts again from the line.
    expect((await agent.logs(run.id, run.attempt, ['still here'])).status).toBe(200);
    expect((await show(run.id)).stalled).toBe(false);
    expect(await stalledCount()).toBe(before);
    clock.advance(6 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect((await show(run.id)).stalled).toBe(true);
    // A progress call clears it too.
    await run.api.post(`${RUN_API}/progress`, { message: 'back' });
    expect((await show(run.id)).stalled).toBe(false);
    await agent.finish(run.id, run.attempt, 'success', 0);
  });

  it('a flagged run that ends is stalled no more', async () => {
    const robot = await createRobot('Ends flagged', { stall_minutes: 1 });
    const run = await startRun(robot.rota_robots_id);
    clock.advance(2 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect((await show(run.id)).stalled).toBe(true);
    await agent.finish(run.id, run.attempt, 'success', 0);
    expect(await show(run.id)).toMatchObject({ status: 'success', stalled: false });
    const list = await c.admin.post(`${ACTIVITY}/index`, { stalled: true, per_page: 100 });
    expect(list.body.data.map((e: { execution_id: number }) => e.execution_id)).not.toContain(
      run.id,
    );
  });

  it('a robot without stall_minutes is never stalled', async () => {
    const robot = await createRobot('Patient robot');
    const run = await startRun(robot.rota_robots_id);
    clock.advance(1441 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect((await show(run.id)).stalled).toBe(false);
    await agent.finish(run.id, run.attempt, 'success', 0);
  });

  it('with kill, ends the attempt as application_error "stalled", retried per its retries', async () => {
    const robot = await createRobot('Killed robot', { stall_minutes: 2, stall_action: 'kill' });
    const run = await startRun(robot.rota_robots_id, 1);
    clock.advance(3 * MINUTE);
    await t.app.engine.handleStalledRuns();
    const retried = await executionOf(c.admin, run.id);
    expect(retried.status).toBe('queued');
    expect(retried.attempt_list[0]).toMatchObject({
      attempt: 1,
      status: 'application_error',
      message: 'stalled',
    });
    // Its agent learns at its next heartbeat that the attempt is not its own any more.
    const beat = await agent.heartbeat([{ execution_id: run.id, attempt: run.attempt }]);
    expect(beat.body.data.cancel).toContain(run.id);
    // The old token is refused.
    expect((await run.api.post(`${RUN_API}/progress`, { percent: 1 })).status).toBe(409);

    const second = await agent.claim();
    expect(second).toMatchObject({ execution_id: run.id, attempt: 2 });
    expect((await show(run.id)).stalled).toBe(false);
    clock.advance(3 * MINUTE);
    await t.app.engine.handleStalledRuns();
    expect(await show(run.id)).toMatchObject({
      status: 'application_error',
      message: 'stalled',
      attempts: 2,
    });
  });
});

describe('stalls on the live stream', () => {
  it('announces the flag and its clearing, to the run’s client only', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const robot = await createRobot('Live stall', { stall_minutes: 1 });
    const run = await startRun(robot.rota_robots_id);
    const mine = await openStream(base, c.adminToken);
    const theirs = await openStream(base, c.otherToken);
    const ofRun = (stream: typeof mine) =>
      stream.events
        .map((e) => e.data)
        .filter(
          (e) => e.type === 'execution' && e.execution_id === run.id && e.stalled !== undefined,
        );
    try {
      clock.advance(2 * MINUTE);
      await t.app.engine.handleStalledRuns();
      await mine.waitFor(() => ofRun(mine).length === 1);
      await run.api.post(`${RUN_API}/progress`, { percent: 10 });
      await mine.waitFor(() => ofRun(mine).length === 2);
      expect(ofRun(mine)).toEqual([
        {
          type: 'execution',
          execution_id: run.id,
          rota_robots_id: robot.rota_robots_id,
          status: 'processing',
          stalled: true,
        },
        {
          type: 'execution',
          execution_id: run.id,
          rota_robots_id: robot.rota_robots_id,
          status: 'processing',
          stalled: false,
        },
      ]);
      expect(ofRun(theirs)).toEqual([]);
      // Every progress call says so (the console refreshes the bar).
      const progressOf = (stream: typeof mine) =>
        stream.events
          .map((e) => e.data)
          .filter((e) => e.type === 'progress' && e.execution_id === run.id);
      await mine.waitFor(() => progressOf(mine).length === 1);
      expect(progressOf(mine)).toEqual([
        {
          type: 'progress',
          execution_id: run.id,
          rota_robots_id: robot.rota_robots_id,
          percent: 10,
        },
      ]);
      expect(progressOf(theirs)).toEqual([]);
    } finally {
      await mine.close();
      await theirs.close();
    }
    await agent.finish(run.id, run.attempt, 'success', 0);
  });
});
