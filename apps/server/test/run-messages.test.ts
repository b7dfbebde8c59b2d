import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';
import { ACTIVITY, AGENT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { client } from './helpers/test-app.js';
import { until } from './helpers/real-agent.js';

/**
 * Run messages as codes with values: the server keeps the English text in `message`
 * and `line`, stores the code beside it and answers both, so the console says it in the user's
 * language; an older agent's text has no code and is shown as it is.
 */
let t: TestApp;
let c: Tenants;
let agent: ReturnType<typeof simulatedAgent>;
let token: string;

beforeAll(async () => {
  // A lease that is over at once, so the reaper can settle a run as "agent lost" on a tick.
  t = await createTestApp({
    engine: {
      loop: false,
      timings: { leaseSeconds: 1, heartbeatSeconds: 10, claimWaitSeconds: 1, reapMarginSeconds: 0 },
    },
  });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  const vm = await createVm(c.admin, 'Messages VM');
  token = (await createAgent(c.admin, 'Messages agent', vm)).token;
  agent = simulatedAgent(t.app, token);
});
afterAll(async () => {
  await t?.close();
});

async function claimedRun(name: string, retries = 0) {
  const robot = await createRobot(c.admin, name);
  const id = await runNow(c.admin, { id: robot, retries });
  const run = await agent.claim();
  expect(run!.execution_id).toBe(id);
  return id;
}

describe('run messages', () => {
  it('answers a timed-out run’s code and values on the execution, its attempt and the list', async () => {
    const id = await claimedRun('Messages timeout');
    const as = client(t.app, { token });
    const finish = await as.post(`${AGENT}/finish`, {
      execution_id: id,
      attempt: 1,
      status: 'timeout',
      exit_code: null,
      message: 'timed out after 1 minute',
      code: 'timed_out',
      params: { minutes: 1 },
    });
    expect(finish.status).toBe(200);
    const shown = await executionOf(c.admin, id);
    expect(shown).toMatchObject({
      status: 'timeout',
      message: 'timed out after 1 minute',
      message_code: 'timed_out',
      message_params: { minutes: 1 },
    });
    expect(shown.attempt_list[0]).toMatchObject({
      message_code: 'timed_out',
      message_params: { minutes: 1 },
    });
    const list = await c.admin.post(`${ACTIVITY}/index`, { search: 'Messages timeout' });
    expect(list.status).toBe(200);
    expect(
      list.body.data.find((x: { execution_id: number }) => x.execution_id === id),
    ).toMatchObject({ message_code: 'timed_out', message_params: { minutes: 1 } });
  });

  it('keeps an older agent’s text without a code', async () => {
    const id = await claimedRun('Messages old agent');
    await agent.finish(id, 1, 'application_error', 1, 'boom');
    expect(await executionOf(c.admin, id)).toMatchObject({
      message: 'boom',
      message_code: null,
      message_params: null,
    });
  });

  it('stores a lost run as agent_lost, in English in message', async () => {
    const id = await claimedRun('Messages lost', 1);
    // The reaper settles what is over by the database's clock: ticks until it did.
    const lost = await until('the run settled as lost', async () => {
      await t.app.engine.tick();
      const run = await executionOf(c.admin, id);
      return run.status === 'queued' && run;
    });
    expect(lost).toMatchObject({
      status: 'queued',
      message: 'agent lost',
      message_code: 'agent_lost',
    });
    expect(lost.attempt_list[0]).toMatchObject({
      message: 'agent lost',
      message_code: 'agent_lost',
    });
    await c.admin.post(`${ACTIVITY}/cancel`, { id });
  });

  it('answers a system line’s code and never takes one on the robot’s own output', async () => {
    const id = await claimedRun('Messages logs');
    const as = client(t.app, { token });
    const at = new Date().toISOString();
    const sent = await as.post(`${AGENT}/logs`, {
      execution_id: id,
      attempt: 1,
      lines: [
        {
          seq: 1,
          stream: 'system',
          line: 'starting `node main.js` in /w',
          at,
          code: 'starting',
          params: { executor: 'node main.js', dir: '/w' },
        },
        { seq: 2, stream: 'stdout', line: 'hello', at, code: 'cancelled', params: {} },
        { seq: 3, stream: 'system', line: 'an older agent’s line', at },
      ],
    });
    expect(sent.status).toBe(200);
    const logs = await c.admin.post(`${ACTIVITY}/logs`, { id });
    expect(logs.status).toBe(200);
    expect(logs.body.data).toMatchObject([
      { line: 'starting `node main.js` in /w', code: 'starting', params: { dir: '/w' } },
      { line: 'hello', code: null, params: null },
      { line: 'an older agent’s line', code: null, params: null },
    ]);
    await agent.finish(id, 1, 'success', 0);
  });

  it('refuses a code that is not a code', async () => {
    const id = await claimedRun('Messages bad code');
    const as = client(t.app, { token });
    const res = await as.post(`${AGENT}/finish`, {
      execution_id: id,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: null,
      code: 'x'.repeat(65),
    });
    expect(res.status).toBe(400);
    await agent.finish(id, 1, 'success', 0);
  });
});
