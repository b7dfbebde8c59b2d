import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from './helpers/agent-stream.js';
import { ACTIVITY, AGENT, ROBOT, runNow, simulatedAgent } from './helpers/engine.js';
import { multipart } from './helpers/multipart.js';
import { robotPackage } from './helpers/robot-package.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

/**
 * Runs go where they can run: a run needs the robot's required labels and its scheduling's or
 * Run now's, fixed when queued, and is claimed only by an agent of its VMs carrying all of them
 * (set in the console, declared in its hello, or its OS and architecture).
 */
const NODE = '/api/rota/node/api/v1';
const SCHEDULING = '/api/rota/scheduling/api/v1';
let t: TestApp;
let c: Tenants;
let origin: string;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/** A VM of its own (runs of one test never reach another test's agents) and a robot. */
async function setting(name: string, required_labels: string[] = []) {
  const vm = await createVm(c.admin, `${name} VM`);
  const robot = await createRobot(c.admin, `${name} robot`);
  if (required_labels.length > 0) {
    const res = await c.admin.put(`${ROBOT}/update`, { id: robot, required_labels });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
  }
  return { vm, robot };
}

async function agentOn(vm: number, name: string, labels?: string[]) {
  const { rota_nodes_id, token } = await createAgent(c.admin, name, vm);
  if (labels) await setAgentLabels(rota_nodes_id, labels);
  return { id: rota_nodes_id, token, agent: simulatedAgent(t.app, token) };
}

async function setAgentLabels(id: number, labels: string[]) {
  const res = await c.admin.put(`${NODE}/update`, { id, labels });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
}

async function showAgent(id: number) {
  const res = await c.admin.post(`${NODE}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as { labels: string[]; effective_labels: string[] };
}

async function execution(id: number) {
  const res = await c.admin.post(`${ACTIVITY}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as {
    status: string;
    labels: string[];
    pending_reason: string | null;
    missing_labels: string[];
  };
}

describe('claiming with labels', () => {
  it('an agent lacking one of the run’s labels is not handed it; one carrying all is (HTTP)', async () => {
    const { vm, robot } = await setting('HTTP claim', ['excel']);
    const lacking = await agentOn(vm, 'HTTP lacking', ['excel']);
    const carrying = await agentOn(vm, 'HTTP carrying', ['sap', 'excel', 'chrome']);
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap'] });
    expect((await execution(id)).labels).toEqual(['excel', 'sap']);

    expect(await lacking.agent.claim()).toBeNull();
    expect(await lacking.agent.claimBatch(5)).toEqual([]);
    expect(await carrying.agent.claim()).toMatchObject({ execution_id: id, attempt: 1 });
  });

  it('a run without labels goes to any agent, with or without labels (today’s rule)', async () => {
    const { vm, robot } = await setting('No labels');
    const plain = await agentOn(vm, 'No labels plain');
    const labelled = await agentOn(vm, 'No labels labelled', ['sap']);
    const first = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const second = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await execution(first)).labels).toEqual([]);
    expect(await plain.agent.claim()).toMatchObject({ execution_id: first });
    expect(await labelled.agent.claim()).toMatchObject({ execution_id: second });
  });

  it('over the stream too: claim, claim-batch and finish with its next claim', async () => {
    const { vm, robot } = await setting('Stream claim');
    const lacking = await agentOn(vm, 'Stream lacking');
    const carrying = await agentOn(vm, 'Stream carrying', ['sap']);
    const lackingStream = await openStream(origin, lacking.token);
    const carryingStream = await openStream(origin, carrying.token);
    try {
      const first = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap'] });
      expect(await lackingStream.call('claim', { wait_seconds: 0 })).toEqual({
        status: 200,
        body: { data: null },
      });
      const batch = await lackingStream.call('claim-batch', { wait_seconds: 0, max: 3 });
      expect(batch.body.data.runs).toEqual([]);
      const claimed = await carryingStream.call('claim', { wait_seconds: 0 });
      expect(claimed.body.data).toMatchObject({ execution_id: first, attempt: 1 });

      // A result carrying the next claim takes only what this agent may run.
      const second = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap'] });
      const finished = await carryingStream.call('finish', {
        execution_id: first,
        attempt: 1,
        status: 'success',
        exit_code: 0,
        message: null,
        claim: { max: 1 },
      });
      expect(finished.status).toBe(200);
      expect(JSON.stringify(finished.body)).toContain(`"execution_id":${second}`);
    } finally {
      lackingStream.socket.close();
      carryingStream.socket.close();
    }
  });

  it('results of several agents at once hand each only runs it may take', async () => {
    const { vm, robot } = await setting('Batch claim');
    const lacking = await agentOn(vm, 'Batch lacking');
    const carrying = await agentOn(vm, 'Batch carrying', ['sap']);
    const a = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const b = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const runA = await lacking.agent.claim();
    const runB = await carrying.agent.claim();
    expect([runA?.execution_id, runB?.execution_id].sort()).toEqual([a, b].sort());
    const labelled = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap'] });
    // Both results in flight together: the batcher may group them into one statement.
    const [fromLacking, fromCarrying] = await Promise.all([
      lacking.agent.finishRun(runA!, { max: 1, wait_seconds: 0 }),
      carrying.agent.finishRun(runB!, { max: 1, wait_seconds: 0 }),
    ]);
    expect(JSON.stringify(fromLacking.body)).not.toContain(`"execution_id":${labelled}`);
    expect(JSON.stringify(fromCarrying.body)).toContain(`"execution_id":${labelled}`);
  });
});

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 5_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('waking waiting agents', () => {
  it('a run with labels wakes an agent carrying them, not the one that waited first', async () => {
    const { vm, robot } = await setting('Wake');
    const lacking = await agentOn(vm, 'Wake lacking');
    const carrying = await agentOn(vm, 'Wake carrying', ['sap']);
    const waiters = t.app.services.dispatch.waiters;
    const before = waiters.size;
    // Long polls long enough that only a wake-up can hand the run out before they end.
    const lackingClaim = lacking.agent.claim(20);
    await until(() => waiters.size === before + 1);
    const stream = await openStream(origin, carrying.token);
    try {
      const carryingClaim = stream.call('claim', { wait_seconds: 20 });
      await until(() => waiters.size === before + 2);
      const id = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap'] });
      expect((await carryingClaim).body.data).toMatchObject({ execution_id: id });
      // The lacking agent still waits; a run it may take ends its poll.
      const plain = await runNow(c.admin, { id: robot, rota_vms_id: vm });
      expect(await lackingClaim).toMatchObject({ execution_id: plain });
    } finally {
      stream.socket.close();
    }
  });
});

describe('the labels an agent carries', () => {
  it('its OS and architecture come from its hello: linux/windows/macos, x64/arm64', async () => {
    const { vm, robot } = await setting('Automatic');
    const windows = await agentOn(vm, 'Automatic windows');
    const linux = await agentOn(vm, 'Automatic linux');
    const old = await agentOn(vm, 'Automatic old');
    const hello = (token: string, body: object) =>
      client(t.app, { token }).post(`${AGENT}/hello`, {
        hostname: 'h.lan',
        version: 'test',
        ...body,
      });
    expect((await hello(windows.token, { os: 'win32 10.0.19045', arch: 'x64' })).status).toBe(200);
    expect((await hello(linux.token, { os: 'linux 6.1.0', arch: 'arm64' })).status).toBe(200);
    // An older agent says no architecture: nothing automatic for what it leaves out.
    expect((await hello(old.token, { os: 'darwin 23.1.0' })).status).toBe(200);
    expect(await showAgent(windows.id)).toEqual(
      expect.objectContaining({ labels: [], effective_labels: ['windows', 'x64'] }),
    );
    expect((await showAgent(linux.id)).effective_labels).toEqual(['arm64', 'linux']);
    expect((await showAgent(old.id)).effective_labels).toEqual(['macos']);

    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['windows'] });
    expect(await linux.agent.claim()).toBeNull();
    expect(await old.agent.claim()).toBeNull();
    expect(await windows.agent.claim()).toMatchObject({ execution_id: id });
  });

  it('it may declare labels in its hello; a hello with other labels is heard at the next claim', async () => {
    const { vm, robot } = await setting('Declared');
    const { id, token, agent } = await agentOn(vm, 'Declared agent', ['excel']);
    const hello = (labels?: string[]) =>
      client(t.app, { token }).post(`${AGENT}/hello`, {
        hostname: 'h.lan',
        version: 'test',
        os: 'linux 6.1.0',
        arch: 'x64',
        ...(labels ? { labels } : {}),
      });
    expect((await hello()).status).toBe(200);
    const run = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['sap', 'excel'] });
    // The claim caches the agent's identity, labels included.
    expect(await agent.claim()).toBeNull();
    expect((await hello(['SAP', 'sap'])).status).toBe(200);
    expect(await showAgent(id)).toEqual(
      expect.objectContaining({
        labels: ['excel'],
        effective_labels: ['excel', 'linux', 'sap', 'x64'],
      }),
    );
    expect(await agent.claim()).toMatchObject({ execution_id: run });
    // Each hello says them whole: a later hello without them drops them.
    expect((await hello()).status).toBe(200);
    expect((await showAgent(id)).effective_labels).toEqual(['excel', 'linux', 'x64']);
  });

  it('labels set in the console are heard at the next claim (the cached identity is dropped)', async () => {
    const { vm, robot } = await setting('Console');
    const { id, agent } = await agentOn(vm, 'Console agent');
    const run = await runNow(c.admin, { id: robot, rota_vms_id: vm, labels: ['chrome'] });
    expect(await agent.claim()).toBeNull();
    await setAgentLabels(id, ['Chrome ', 'chrome', 'excel']);
    expect(await showAgent(id)).toEqual(
      expect.objectContaining({
        labels: ['chrome', 'excel'],
        effective_labels: ['chrome', 'excel'],
      }),
    );
    expect(await agent.claim()).toMatchObject({ execution_id: run });
  });
});

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
