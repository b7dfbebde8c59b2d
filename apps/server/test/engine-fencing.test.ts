import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../src/modules/dispatch/live-events.js';
import { AGENT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, createTwoInstances, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * A run is alive in one place at most: a claim nobody received goes back at once, a clean stop
 * frees what the agent left, the server waits a lease out plus a margin before handing a run
 * on, and a rotated token stops working at once.
 */
let t: TestApp;
let c: Tenants;
let vm: number;

beforeAll(async () => {
  t = await createTestApp({
    engine: {
      loop: false,
      timings: {
        leaseSeconds: 1,
        heartbeatSeconds: 10,
        claimWaitSeconds: 25,
        reapMarginSeconds: 2,
      },
    },
  });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  vm = await createVm(c.admin, 'Fencing VM');
});
afterAll(async () => {
  await t?.close();
});

async function drainQueue() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
  );
}

describe('engine fencing', () => {
  it('gives a run back at once when the long poll that claimed it was hung up', async () => {
    await drainQueue();
    const gone = await createAgent(c.admin, 'Hung-up agent', vm);
    const other = simulatedAgent(t.app, (await createAgent(c.admin, 'Idle agent', vm)).token);
    const robot = await createRobot(c.admin, 'Fencing robot hang-up');
    // A real socket: the agent asks for work, then its process goes (the connection closes).
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${AGENT}/claim`,
      headers: { authorization: `Bearer ${gone.token}`, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ wait_seconds: 20 }));
    // The long poll is waiting at the server…
    await t.app.services.dispatch.waiters.whenSize((n) => n === 1);
    req.destroy();
    // The server hears the hang-up: the dead request no longer waits…
    await t.app.services.dispatch.waiters.whenSize((n) => n === 0);
    // …so a run queued now is not handed to it.
    const id = await runNow(c.admin, { id: robot });
    const run = await other.claim();
    expect(run).toMatchObject({ execution_id: id, attempt: 1 });
    const shown = await executionOf(c.admin, id);
    expect(shown.attempt_list).toHaveLength(1);
    expect(shown.rota_executor_name).toBe('Idle agent');
    void (t.app.server.address() as AddressInfo | null);
  });

  it('frees what a stopping agent left and shows it inactive at once (goodbye)', async () => {
    await drainQueue();
    const { token, rota_nodes_id } = await createAgent(c.admin, 'Leaving agent', vm);
    const leaving = simulatedAgent(t.app, token);
    await leaving.hello();
    const robot = await createRobot(c.admin, 'Fencing robot goodbye');
    const held = await runNow(c.admin, { id: robot });
    const abandoned = await runNow(c.admin, { id: robot, retries: 1 });
    expect((await leaving.claim())!.execution_id).toBe(held);
    expect((await leaving.claim())!.execution_id).toBe(abandoned);

    // It still holds the result of the first (undelivered), not the second.
    const bye = await client(t.app, { token }).post(`${AGENT}/goodbye`, {
      running: [{ execution_id: held, attempt: 1 }],
    });
    expect(bye.status).toBe(200);
    expect(bye.body.data).toEqual({ released: 1 });
    expect(await executionOf(c.admin, abandoned)).toMatchObject({ status: 'queued' });
    expect((await executionOf(c.admin, abandoned)).attempt_list[0]).toMatchObject({
      status: 'application_error',
      message: 'agent stopped',
    });
    expect(await executionOf(c.admin, held)).toMatchObject({ status: 'processing' });
    const agent = await c.admin.post('/api/rota/node/api/v1/show', { id: rota_nodes_id });
    expect(agent.body.data.connectivity).toBe('inactive');
  });

  it('waits the lease out plus its margin before handing a run on', async () => {
    await drainQueue();
    const robot = await createRobot(c.admin, 'Fencing robot margin');
    const first = simulatedAgent(t.app, (await createAgent(c.admin, 'Margin A', vm)).token);
    const second = simulatedAgent(t.app, (await createAgent(c.admin, 'Margin B', vm)).token);
    const id = await runNow(c.admin, { id: robot, retries: 1 });
    expect((await first.claim())!.execution_id).toBe(id);
    // Leases are the database's clock: the lease is aged there rather than waited out.
    const leaseEndedAgo = (seconds: number) =>
      t.db.execute(
        sql`update rota_executions set lease_expires_at = now() - make_interval(secs => ${seconds})
            where rota_executions_id = ${id}`,
      );
    // The lease is over, the margin (2 s) is not: the agent may still be killing it.
    await leaseEndedAgo(1.3);
    await t.app.engine.tick();
    expect((await executionOf(c.admin, id)).status).toBe('processing');
    expect(await second.claim()).toBeNull();
    await leaseEndedAgo(3.3);
    await t.app.engine.tick();
    expect((await second.claim())!).toMatchObject({ execution_id: id, attempt: 2 });
  });

  it('stops a rotated or deleted token at once', async () => {
    const { token, rota_nodes_id } = await createAgent(c.admin, 'Rotated agent', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    const rotated = await c.admin.post('/api/rota/node/api/v1/rotate_token', { id: rota_nodes_id });
    expect(rotated.status).toBe(200);
    expect((await agent.hello()).status).toBe(401);
    const renewed = simulatedAgent(t.app, rotated.body.data.token);
    expect((await renewed.hello()).status).toBe(200);
    expect((await c.admin.post('/api/rota/node/api/v1/delete', { id: rota_nodes_id })).status).toBe(
      202,
    );
    expect((await renewed.hello()).status).toBe(401);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('fencing across two instances on PostgreSQL', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a token rotated through one instance stops working on the other at once', async () => {
    const tenants = await setUpTenants(first, { permissions: ['ROBOS.LIST'] });
    const vmId = await createVm(tenants.admin, 'Two-instance VM');
    const { token, rota_nodes_id } = await createAgent(tenants.admin, 'Cached agent', vmId);
    const onSecond = simulatedAgent(second.app, token);
    // Cached on the second instance now.
    expect((await onSecond.hello()).status).toBe(200);
    // The second instance's own listener comes first: once this one hears a change of the
    // agent, the second instance has forgotten its identity. The hello's own change (its labels)
    // may be heard first; the rotation's is among the next.
    let heard = 0;
    let onHeard = () => {};
    const stopListening = second.events.subscribe(CHANNELS.agents, () => {
      heard += 1;
      onHeard();
    });
    const nextChange = (after: number) =>
      new Promise<void>((resolve) => {
        onHeard = () => heard > after && resolve();
        onHeard();
      });
    expect(
      (await tenants.admin.post('/api/rota/node/api/v1/rotate_token', { id: rota_nodes_id }))
        .status,
    ).toBe(200);
    let status = 200;
    for (let seen = 0; status === 200; seen = heard) {
      await nextChange(seen);
      status = (await onSecond.hello()).status;
    }
    stopListening();
    expect(status).toBe(401);
  });
});
