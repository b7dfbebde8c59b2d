import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, ACTIVITY, RUN_API } from './helpers/engine.js';
import { findClient } from './helpers/fixtures.js';
import { labelFixtures } from './helpers/labels.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Starting attended runs: from the console's "My robots" (the caller's own attended agents) and
 * from an attended agent's command line (`rota-agent run`), with data only that run takes.
 */
const ATTENDED = '/api/rota/attended/api/v1';
const TASKS = '/api/rota/task/api/v1';
const FIELDS = '/api/rota/robot/field/api/v1';

let t: TestApp;
let c: Tenants;
type User = Awaited<ReturnType<typeof signedInUser>> & { access: string };
let ana: User;
let bruno: User;
let viewer: User;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
  const def = (await findClient(t.db, 'Default')).rota_clients_id;
  const user = async (access: string, permissions: Parameters<typeof signedInUser>[3]) => ({
    ...(await signedInUser(t, def, access, permissions)),
    access,
  });
  const runner = { permissions: ['ROBOS.LIST', 'ROBOS.UPDATE'] as const };
  ana = await user(`ana.start${c.otherClientId}`, runner);
  bruno = await user(`bruno.start${c.otherClientId}`, runner);
  viewer = await user(`viewer.start${c.otherClientId}`, { permissions: ['ROBOS.LIST'] });
});
afterAll(async () => {
  await t?.close();
});

const { setting, agentOn } = labelFixtures(
  () => t,
  () => c,
);

/** An agent on `vm` whose hello says it serves `access` (none: unattended). */
async function agentFor(vm: number, name: string, access?: string, labels?: string[]) {
  const made = await agentOn(vm, name, labels);
  const res = await client(t.app, { token: made.token }).post(`${AGENT}/hello`, {
    hostname: 'desk.lan',
    version: 'test',
    os: 'linux test',
    ...(access === undefined ? {} : { attended_user: access }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return made;
}

async function shown(id: number) {
  const res = await c.admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    attended_by: number | null;
    attended_by_name: string | null;
    rota_vms_id: number | null;
  };
}

async function startFromConsole(as: User['as'], body: object) {
  return as.post(`${ATTENDED}/run`, body);
}

describe('My robots', () => {
  it('lists the caller’s attended agents and the active robots their labels allow', async () => {
    const { vm, robot } = await setting('Mine plain');
    const needy = (await setting('Mine needy', ['sap'])).robot;
    const desk = await agentFor(vm, 'Mine ana desk', ana.access);
    await agentFor(vm, 'Mine bruno desk', bruno.access, ['sap']);

    const res = await ana.as.get(`${ATTENDED}/robots?search=Mine`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.agents).toEqual([
      expect.objectContaining({ rota_nodes_id: desk.id, rota_vms_id: vm, connectivity: 'active' }),
    ]);
    const names = res.body.data.robots.map((r: { rota_robots_id: number }) => r.rota_robots_id);
    expect(names).toContain(robot);
    expect(names).not.toContain(needy);
    expect(
      res.body.data.robots.find((r: { rota_robots_id: number }) => r.rota_robots_id === robot),
    ).toMatchObject({ agent_ids: [desk.id] });

    const brunos = await bruno.as.get(`${ATTENDED}/robots?search=Mine`);
    const brunoRobots = brunos.body.data.robots.map(
      (r: { rota_robots_id: number }) => r.rota_robots_id,
    );
    expect(brunoRobots).toEqual(expect.arrayContaining([robot, needy]));
  });

  it('is refused without the permission to run robots (403), and empty with no attended agent', async () => {
    expect((await viewer.as.get(`${ATTENDED}/robots`)).status).toBe(403);
    const admins = await c.admin.get(`${ATTENDED}/robots`);
    expect(admins.status).toBe(200);
    expect(admins.body.data).toEqual({ agents: [], robots: [], truncated: false });
  });
});

describe('starting an attended run from the console', () => {
  it('queues a run on the caller’s agent’s VM that only that agent takes, marked attended', async () => {
    const { vm, robot } = await setting('Console start');
    const anas = await agentFor(vm, 'Console ana', ana.access);
    const brunos = await agentFor(vm, 'Console bruno', bruno.access);
    const plain = await agentFor(vm, 'Console plain');

    const res = await startFromConsole(ana.as, { id: robot, rota_nodes_id: anas.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.execution_id as number;
    expect(await shown(id)).toMatchObject({
      status: 'queued',
      attended_by: ana.id,
      attended_by_name: `${ana.access} Tester`,
    });
    expect(await brunos.agent.claim()).toBeNull();
    expect(await plain.agent.claim()).toBeNull();
    expect(await anas.agent.claim()).toMatchObject({ execution_id: id });
  });

  it('says what is wrong with the agent chosen, in the caller’s language', async () => {
    const { vm, robot } = await setting('Console choose');
    const loner = await signedInUser(
      t,
      (await findClient(t.db, 'Default')).rota_clients_id,
      `loner${c.otherClientId}`,
      { permissions: ['ROBOS.LIST', 'ROBOS.UPDATE'], lang: 'pt' },
    );
    const none = await startFromConsole(loner.as, { id: robot });
    expect(none.status).toBe(409);
    expect(JSON.stringify(none.body)).toContain('Você não tem agente assistido');

    const brunos = await agentFor(vm, 'Choose bruno', bruno.access);
    const notMine = await startFromConsole(ana.as, { id: robot, rota_nodes_id: brunos.id });
    expect(notMine.status).toBe(400);
    expect(notMine.body.errors).toEqual([
      { field: 'rota_nodes_id', message: 'This is not one of your attended agents' },
    ]);

    const needy = (await setting('Console needy', ['excel'])).robot;
    const lacking = await startFromConsole(bruno.as, { id: needy, rota_nodes_id: brunos.id });
    expect(lacking.status).toBe(400);
    expect(lacking.body.errors[0]).toMatchObject({ field: 'id' });

    const other = await startFromConsole(bruno.as, { id: 999_999, rota_nodes_id: brunos.id });
    expect(other.status).toBe(404);
  });

  it('task_data becomes a task only this run takes while it lives; checked against the fields', async () => {
    const { vm, robot } = await setting('Console data');
    const field = await c.admin.post(`${FIELDS}/create`, {
      rota_robots_id: robot,
      name: 'invoice',
      label: 'Invoice',
      required: true,
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const anas = await agentFor(vm, 'Data ana', ana.access);
    const plain = await agentFor(vm, 'Data plain');

    const missing = await startFromConsole(ana.as, {
      id: robot,
      rota_nodes_id: anas.id,
      task_data: { other: 1 },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'task_data.invoice' })]),
    );

    // A shared task queued earlier, at a higher priority than the run's own.
    const shared = await c.admin.post(`${TASKS}/create`, {
      rota_robots_id: robot,
      data: { invoice: 'shared' },
      priority: 90,
      expiration_date: '2099-01-01',
    });
    expect(shared.status).toBe(201);
    const res = await startFromConsole(ana.as, {
      id: robot,
      rota_nodes_id: anas.id,
      task_data: { invoice: 'A-42' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attendedId = res.body.data.execution_id as number;

    // An unattended run of the same robot gets the shared task, never the reserved one.
    const unattendedId = (await c.admin.post('/api/rota/robot/api/v1/run', { id: robot })).body.data
      .execution_id as number;
    const plainRun = await plain.agent.claim();
    expect(plainRun).toMatchObject({ execution_id: unattendedId });
    const plainRobot = client(t.app, { token: plainRun!.environment.ROTA_EXECUTION_TOKEN! });
    const first = await plainRobot.post(`${RUN_API}/task/next`, {});
    expect(first.body.data).toMatchObject({ data: { invoice: 'shared' } });
    expect((await plainRobot.post(`${RUN_API}/task/next`, {})).body.data).toBeNull();

    const anaRun = await anas.agent.claim();
    expect(anaRun).toMatchObject({ execution_id: attendedId });
    const anaRobot = client(t.app, { token: anaRun!.environment.ROTA_EXECUTION_TOKEN! });
    const own = await anaRobot.post(`${RUN_API}/task/next`, {});
    expect(own.body.data).toMatchObject({ data: { invoice: 'A-42' } });
  });

  it('a reserved task its run left untaken is any run’s once that run is final', async () => {
    const { vm, robot } = await setting('Console leftover');
    const anas = await agentFor(vm, 'Leftover ana', ana.access);
    const plain = await agentFor(vm, 'Leftover plain');
    const res = await startFromConsole(ana.as, {
      id: robot,
      rota_nodes_id: anas.id,
      task_data: { note: 'left' },
    });
    const attendedId = res.body.data.execution_id as number;
    const anaRun = await anas.agent.claim();
    expect(anaRun).toMatchObject({ execution_id: attendedId });

    const unattendedId = (await c.admin.post('/api/rota/robot/api/v1/run', { id: robot })).body.data
      .execution_id as number;
    const plainRun = await plain.agent.claim();
    expect(plainRun).toMatchObject({ execution_id: unattendedId });
    const plainRobot = client(t.app, { token: plainRun!.environment.ROTA_EXECUTION_TOKEN! });
    expect((await plainRobot.post(`${RUN_API}/task/next`, {})).body.data).toBeNull();

    expect((await anas.agent.finish(attendedId, 1, 'success', 0)).status).toBe(200);
    expect((await plainRobot.post(`${RUN_API}/task/next`, {})).body.data).toMatchObject({
      data: { note: 'left' },
    });
  });
});

describe('starting an attended run from the agent’s command line', () => {
  it('runs a robot by name on the agent that asked, as its user', async () => {
    const { vm, robot } = await setting('Agent start');
    const anas = await agentFor(vm, 'Agent ana', ana.access);
    const brunos = await agentFor(vm, 'Agent bruno', bruno.access);
    const res = await anas.agent.post(`${AGENT}/run`, { robot: 'AGENT START ROBOT' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.data.execution_id as number;
    expect(await shown(id)).toMatchObject({ attended_by: ana.id });
    expect(await brunos.agent.claim()).toBeNull();
    expect(await anas.agent.claim()).toMatchObject({ execution_id: id });

    const byId = await anas.agent.post(`${AGENT}/run`, { robot: String(robot) });
    expect(byId.status).toBe(201);
  });

  it('is refused to an unattended agent, for an unknown or hidden robot, and once the user may not run', async () => {
    const { vm } = await setting('Agent refuse');
    const plain = await agentFor(vm, 'Refuse plain');
    const refused = await plain.agent.post(`${AGENT}/run`, { robot: 'Agent refuse robot' });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ field: 'robot', message: expect.stringContaining('not attended') }),
    ]);

    const viewers = await agentFor(vm, 'Refuse viewer', viewer.access);
    expect((await viewers.agent.post(`${AGENT}/run`, { robot: 'Agent refuse robot' })).status).toBe(
      403,
    );

    const anas = await agentFor(vm, 'Refuse ana', ana.access);
    const unknown = await anas.agent.post(`${AGENT}/run`, { robot: 'no such robot at all' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { field: 'robot', message: 'No robot of this client has this name' },
    ]);

    // Another robot of a team Ana is in: the refuse robot is hidden from her now.
    const visible = (await setting('Agent team')).robot;
    await createTeam(c.admin, `Refuse team ${c.otherClientId}`, {
      robots: [visible],
      users: [ana.id],
    });
    const hidden = await anas.agent.post(`${AGENT}/run`, { robot: 'Agent refuse robot' });
    expect(hidden.status).toBe(400);
    expect((await anas.agent.post(`${AGENT}/run`, { robot: 'Agent team robot' })).status).toBe(201);
  });
});
