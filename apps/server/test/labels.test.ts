import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStream } from './helpers/agent-stream.js';
import { AGENT, runNow } from './helpers/engine.js';
import { labelFixtures } from './helpers/labels.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';

/**
 * Runs go where they can run: a run needs the robot's required labels and its scheduling's or
 * Run now's, fixed when queued, and is claimed only by an agent of its VMs carrying all of them
 * (set in the console, declared in its hello, or its OS and architecture).
 */
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

const { setting, agentOn, setAgentLabels, showAgent, execution } = labelFixtures(
  () => t,
  () => c,
);

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
