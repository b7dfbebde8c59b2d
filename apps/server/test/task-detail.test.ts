import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskHistoryEntry } from '@rota/contract';
import { RUN_API, ROBOT, runNow, simulatedAgent } from './helpers/engine.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/** A task's page: its history with the executions that held it, linked both ways. */

const TASKS = '/api/rota/task/api/v1';
const FUTURE = '2099-12-31';

let t: TestApp;
let c: Tenants;
let agent: ReturnType<typeof simulatedAgent>;

type Caller = Tenants['admin'];

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t);
  const vm = await createVm(c.admin, 'Task detail VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Task detail agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

async function createRobot(as: Caller, name: string) {
  const res = await as.post(`${ROBOT}/create`, { name, executor: 'node main.js' });
  expect(res.status).toBe(201);
  return res.body.data.rota_robots_id as number;
}

async function createTask(as: Caller, robot: number, label: string) {
  const res = await as.post(`${TASKS}/create`, {
    rota_robots_id: robot,
    label,
    data: {},
    expiration_date: FUTURE,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_tasks_id as number;
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

async function history(id: number, as: Caller = c.admin) {
  const res = await as.post(`${TASKS}/history`, { id });
  expect(res.status).toBe(200);
  return res.body.data as TaskHistoryEntry[];
}

async function heldBy(executionId: number, as: Caller = c.admin) {
  const res = await as.post(`${TASKS}/index`, { rota_executions_id: executionId });
  expect(res.status).toBe(200);
  return (res.body.data as { rota_tasks_id: number }[]).map((task) => task.rota_tasks_id);
}

describe('task history', () => {
  it('lists every status and holder change in order, with the executions that held it', async () => {
    const robot = await createRobot(c.admin, 'History robot');
    const task = await createTask(c.admin, robot, 'Invoice 42');
    const untouched = await createTask(c.admin, robot, 'Invoice 43');

    // Run A takes it and fails it with a business error.
    const a = await startRun(robot);
    const taken = await a.api.post(`${RUN_API}/task/next`, {});
    expect(taken.body.data.rota_tasks_id).toBe(task);
    const failed = await a.api.post(`${RUN_API}/task/finish`, {
      id: task,
      status: 'business_error',
      business_error: 'Invoice closed',
    });
    expect(failed.status).toBe(200);
    await a.end();

    // An operator retries it; run B takes it and finishes it.
    const retried = await c.admin.post(`${TASKS}/retry`, { ids: [task] });
    expect(retried.body.data.count).toBe(1);
    // The queue holds the untouched task too: B takes this one first (higher priority).
    await c.admin.put(`${TASKS}/update`, { id: task, priority: 90 });
    const b = await startRun(robot);
    expect((await b.api.post(`${RUN_API}/task/next`, {})).body.data.rota_tasks_id).toBe(task);
    await b.api.post(`${RUN_API}/task/finish`, { id: task, status: 'success' });

    const rows = await history(task);
    expect(
      rows.map((r) => ({
        status: r.status,
        rota_executions_id: r.rota_executions_id,
        attempts: r.attempts,
        business_error: r.business_error,
      })),
    ).toEqual([
      { status: 'pending', rota_executions_id: null, attempts: 0, business_error: null },
      { status: 'processing', rota_executions_id: a.id, attempts: 1, business_error: null },
      {
        status: 'business_error',
        rota_executions_id: a.id,
        attempts: 1,
        business_error: 'Invoice closed',
      },
      { status: 'pending', rota_executions_id: null, attempts: 1, business_error: null },
      { status: 'processing', rota_executions_id: b.id, attempts: 2, business_error: null },
      { status: 'success', rota_executions_id: b.id, attempts: 2, business_error: null },
    ]);
    // Oldest first, by instant too.
    const instants = rows.map((r) => Date.parse(r.at));
    expect([...instants].sort((x, y) => x - y)).toEqual(instants);
    expect(rows[0]!.execution).toBeNull();
    // A ended; B still runs, on the agent that claimed it.
    expect(rows[2]!.execution).toMatchObject({
      status: 'success',
      rota_nodes_name: 'Task detail agent',
    });
    expect(rows[2]!.execution!.started_at).not.toBeNull();
    expect(rows[2]!.execution!.ended_at).not.toBeNull();
    expect(rows[5]!.execution).toMatchObject({
      status: 'processing',
      rota_nodes_name: 'Task detail agent',
      ended_at: null,
    });
    await b.end();

    // Linked the other way: the tasks each execution held.
    expect(await heldBy(a.id)).toEqual([task]);
    expect(await heldBy(b.id)).toEqual([task]);
    expect(await heldBy(a.id)).not.toContain(untouched);
    expect(await history(untouched)).toHaveLength(1);
  });

  it('answers 404 for another client’s task or an unknown one', async () => {
    const robot = await createRobot(c.other, 'Their history robot');
    const theirs = await createTask(c.other, robot, 'Theirs');
    expect((await history(theirs, c.other)).map((r) => r.status)).toEqual(['pending']);
    expect((await c.admin.post(`${TASKS}/history`, { id: theirs })).status).toBe(404);
    expect((await c.admin.post(`${TASKS}/history`, { id: 999_999_999 })).status).toBe(404);
    const bad = await c.admin.post(`${TASKS}/history`, { id: 'x' });
    expect(bad.status).toBe(400);
  });

  it('shows a team member only the tasks of the team’s robots', async () => {
    const ours = await createRobot(c.admin, 'Team history robot');
    const outside = await createRobot(c.admin, 'Outside history robot');
    const mine = await createTask(c.admin, ours, 'Team task');
    const notMine = await createTask(c.admin, outside, 'Outside task');
    const member = await signedInUser(t, c.defaultClientId, `historymember${ours}`);
    await createTeam(c.admin, `History team ${ours}`, { robots: [ours], users: [member.id] });

    expect((await member.as.post(`${TASKS}/history`, { id: mine })).status).toBe(200);
    expect((await member.as.post(`${TASKS}/history`, { id: notMine })).status).toBe(404);

    // The execution filter keeps the team rule: a run of the outside robot lists nothing.
    const run = await startRun(outside);
    expect((await run.api.post(`${RUN_API}/task/next`, {})).body.data.rota_tasks_id).toBe(notMine);
    await run.end();
    expect(await heldBy(run.id)).toEqual([notMine]);
    expect(await heldBy(run.id, member.as)).toEqual([]);
  });

  it('refuses a bad execution filter with a field error', async () => {
    const res = await c.admin.post(`${TASKS}/index`, { rota_executions_id: 'x' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('rota_executions_id');
  });
});
