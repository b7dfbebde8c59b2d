import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY, AGENT, ROBOT, runNow } from './helpers/engine.js';
import { labelFixtures } from './helpers/labels.js';
import { multipart } from './helpers/multipart.js';
import { robotPackage } from './helpers/robot-package.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createVm, setLastSeen } from './helpers/vms.js';

/**
 * A run's labels are the robot's required ones and its scheduling's or Run now's, fixed when it
 * is queued, whichever way it is queued; a run no agent can take says why; bad labels are 400.
 */
const NODE = '/api/rota/node/api/v1';
const SCHEDULING = '/api/rota/scheduling/api/v1';
let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
});
afterAll(async () => {
  await t?.close();
});

const { setting, agentOn, setAgentLabels, execution } = labelFixtures(
  () => t,
  () => c,
);

describe('labels fixed at queue time', () => {
  it('a queued run keeps the labels it was queued with when the robot’s change later', async () => {
    const { vm, robot } = await setting('Fixed', ['excel']);
    const { agent } = await agentOn(vm, 'Fixed agent', ['excel']);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const changed = await c.admin.put(`${ROBOT}/update`, {
      id: robot,
      required_labels: ['excel', 'sap'],
    });
    expect(changed.status).toBe(204);
    expect((await execution(id)).labels).toEqual(['excel']);
    expect(await agent.claim()).toMatchObject({ execution_id: id });
    // The next run needs the new ones.
    const next = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await execution(next)).labels).toEqual(['excel', 'sap']);
    expect(await agent.claim()).toBeNull();
  });

  it('a scheduling’s labels join the robot’s: when due, and on its Run now', async () => {
    const { vm, robot } = await setting('Scheduled', ['excel']);
    const created = await c.admin.post(`${SCHEDULING}/create`, {
      name: 'Scheduled labels',
      rota_robots_id: robot,
      interval_minutes: 60,
      timeout_minutes: 5,
      vms: [vm],
      labels: ['sap', 'excel'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.labels).toEqual(['excel', 'sap']);
    const scheduling = created.body.data.rota_schedulings_id as number;
    await t.app.engine.tick();
    const listed = await c.admin.post(`${ACTIVITY}/index`, { rota_robots_id: robot });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ labels: ['excel', 'sap'] })]);
    const { agent } = await agentOn(vm, 'Scheduled agent', ['excel']);
    expect(await agent.claim()).toBeNull();

    await c.admin.put(`${SCHEDULING}/update`, { id: scheduling, labels: ['chrome'] });
    const manual = await c.admin.post(`${SCHEDULING}/run`, { id: scheduling });
    expect(manual.status, JSON.stringify(manual.body)).toBe(201);
    expect((await execution(manual.body.data.execution_id)).labels).toEqual(['chrome', 'excel']);
  });
});

describe('every way a run is queued', () => {
  it('a queue trigger’s runs and a run trigger’s runs carry the labels too', async () => {
    const { vm, robot } = await setting('Queued ways', ['excel']);
    const created = await c.admin.post(`${SCHEDULING}/create`, {
      name: 'Queue labels',
      rota_robots_id: robot,
      trigger_type: 'queue',
      timeout_minutes: 5,
      vms: [vm],
      labels: ['sap'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const task = await c.admin.post('/api/rota/task/api/v1/create', {
      rota_robots_id: robot,
      label: 'Item',
      data: {},
      expiration_date: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(task.status).toBe(201);
    await t.app.engine.tick();
    const listed = async () => {
      const res = await c.admin.post(`${ACTIVITY}/index`, { rota_robots_id: robot });
      return res.body.data as { labels: string[]; trigger: string }[];
    };
    expect(await listed()).toEqual([expect.objectContaining({ labels: ['excel', 'sap'] })]);

    const trigger = await c.admin.post('/api/rota/trigger/api/v1/create', {
      rota_robots_id: robot,
      name: 'Labels trigger',
    });
    expect(trigger.status, JSON.stringify(trigger.body)).toBe(201);
    const fired = await client(t.app, { token: trigger.body.data.token }).post(
      '/api/rota/trigger/api/v1/fire',
      {},
    );
    expect(fired.status, JSON.stringify(fired.body)).toBe(201);
    const runs = await listed();
    expect(runs).toHaveLength(2);
    expect(runs.map((run) => run.labels.join()).sort()).toEqual(['excel', 'excel,sap']);
  });
});

async function robotWithVersion(name: string, required_labels: string[]) {
  const robot = await createRobot(c.admin, name);
  const form = multipart(
    { rota_robots_id: robot, version: '1.0.0' },
    { name: 'robot.tar.gz', data: robotPackage() },
  );
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/rota/robot/version/api/v1/create',
    payload: form.payload,
    headers: { 'content-type': form.contentType, authorization: c.admin.authorization },
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const version = JSON.parse(uploaded.body).data.rota_robot_versions_id as number;
  await c.admin.put('/api/rota/robot/version/api/v1/update', { id: version, current: true });
  await c.admin.put(`${ROBOT}/update`, { id: robot, required_labels });
  return robot;
}

describe('why it is still queued', () => {
  it('no_agent_with_labels, with the labels no agent of its VMs carries', async () => {
    const robot = await robotWithVersion('Reason robot', ['excel']);
    const vm = await createVm(c.admin, 'Reason VM');
    const other = await createVm(c.admin, 'Reason other VM');
    const excel = await agentOn(vm, 'Reason excel', ['excel']);
    await setLastSeen(t.db, excel.id, 0);
    // Another VM's agent carries sap: it does not count.
    await setLastSeen(t.db, (await agentOn(other, 'Reason elsewhere', ['sap', 'excel'])).id, 0);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap', 'chrome'] });
    expect(await execution(id)).toMatchObject({
      pending_reason: 'no_agent_with_labels',
      missing_labels: ['chrome', 'sap'],
    });
    const listed = await c.admin.post(`${ACTIVITY}/index`, { search: `#${id}` });
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        execution_id: id,
        pending_reason: 'no_agent_with_labels',
        missing_labels: ['chrome', 'sap'],
      }),
    ]);

    // Each label is carried by some agent, none carries all: still no agent, nothing missing.
    const sap = await agentOn(vm, 'Reason sap', ['sap', 'chrome']);
    expect(await execution(id)).toMatchObject({
      pending_reason: 'no_agent_with_labels',
      missing_labels: [],
    });
    // An agent carrying all, but not active: the reason moves on.
    await setAgentLabels(sap.id, ['sap', 'chrome', 'excel']);
    expect(await execution(id)).toMatchObject({
      pending_reason: 'no_agent_active',
      missing_labels: [],
    });
  });
});

describe('runs ahead', () => {
  it('a run ahead that its free agent cannot take does not keep it waiting', async () => {
    const robot = await robotWithVersion('Ahead robot', []);
    const vm = await createVm(c.admin, 'Ahead VM');
    await setLastSeen(t.db, (await agentOn(vm, 'Ahead agent')).id, 0);
    const first = await runNow(c.admin, {
      id: robot,
      rota_vms_id: vm,
      priority: 90,
      labels: ['sap'],
    });
    const second = await runNow(c.admin, { id: robot, rota_vms_id: vm, priority: 10 });
    expect((await execution(first)).pending_reason).toBe('no_agent_with_labels');
    // The free agent takes the second next: nothing keeps it waiting.
    expect((await execution(second)).pending_reason).toBeNull();
    // Once the agent carries sap too, the first goes first.
    const sap = await agentOn(vm, 'Ahead sap', ['sap']);
    await setLastSeen(t.db, sap.id, 0);
    await setAgentLabels(sap.id, ['sap']);
    expect((await execution(first)).pending_reason).toBeNull();
  });
});

describe('bad labels', () => {
  it('are answered 400 with field errors, in en and pt', async () => {
    const robot = await createRobot(c.admin, 'Bad labels robot');
    const en = await c.admin.put(`${ROBOT}/update`, { id: robot, required_labels: ['sap erp'] });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      {
        field: 'required_labels.0',
        message: 'A label uses lowercase letters, digits, ".", "_" and "-", 1 to 40 characters',
      },
    ]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const tooMany = await pt.post(`${ROBOT}/run`, {
      id: robot,
      labels: Array.from({ length: 21 }, (_, i) => `l${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([{ field: 'labels', message: 'No máximo 20 rótulos' }]);
    const long = await pt.put(`${NODE}/update`, {
      id: (await agentOn(await createVm(c.admin, 'Bad VM'), 'Bad agent')).id,
      labels: ['x'.repeat(41)],
    });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([
      {
        field: 'labels.0',
        message: 'Um rótulo usa letras minúsculas, dígitos, ".", "_" e "-", de 1 a 40 caracteres',
      },
    ]);
    const hello = await client(t.app, {
      token: (await agentOn(await createVm(c.admin, 'Bad hello VM'), 'Bad hello')).token,
    }).post(`${AGENT}/hello`, { hostname: 'h', version: 'v', os: 'linux', labels: ['a,b'] });
    expect(hello.status).toBe(400);
  });
});
