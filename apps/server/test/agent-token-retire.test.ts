import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AGENT, executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * "Generate new token" lets running runs finish: the old token keeps serving the
 * runs its agent already claimed (heartbeats, logs, results) and never claims again.
 */
let t: TestApp;
let c: Tenants;
let vm: number;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  vm = await createVm(c.admin, 'Retire VM');
});
afterAll(async () => {
  await t?.close();
});

describe('a regenerated agent token', () => {
  it('lets the run the old token claimed finish, and refuses the old token a new claim', async () => {
    await t.db.execute(
      sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
    );
    const robot = await createRobot(c.admin, 'Retire robot');
    const { token: old, rota_nodes_id } = await createAgent(c.admin, 'Retiring agent', vm);
    const oldAgent = simulatedAgent(t.app, old);
    expect((await oldAgent.hello()).status).toBe(200);
    const id = await runNow(c.admin, { id: robot });
    const run = (await oldAgent.claim())!;
    expect(run).toMatchObject({ execution_id: id, attempt: 1 });
    // Cached by the dispatch service now: regeneration must not leave it valid for claims.
    expect((await oldAgent.heartbeat([{ execution_id: id, attempt: 1 }])).status).toBe(200);

    const rotated = await c.admin.post('/api/rota/node/api/v1/rotate_token', { id: rota_nodes_id });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.token as string;

    const beat = await oldAgent.heartbeat([{ execution_id: id, attempt: 1 }]);
    expect(beat.status).toBe(200);
    expect(beat.body.data.cancel).toEqual([]);
    expect((await oldAgent.logs(id, 1, ['still going'])).status).toBe(200);
    expect((await oldAgent.finish(id, 1, 'success', 0)).status).toBe(200);
    expect(await executionOf(c.admin, id)).toMatchObject({ status: 'success' });

    // Never a new claim nor a new hello with the retired token.
    const second = await runNow(c.admin, { id: robot });
    const claimed = await client(t.app, { token: old }).post(`${AGENT}/claim`, {
      wait_seconds: 0,
    });
    expect(claimed.status).toBe(401);
    expect((await oldAgent.hello()).status).toBe(401);

    const newAgent = simulatedAgent(t.app, fresh);
    expect((await newAgent.hello()).status).toBe(200);
    expect(await newAgent.claim()).toMatchObject({ execution_id: second, attempt: 1 });
    expect((await newAgent.finish(second, 1, 'success', 0)).status).toBe(200);

    // A second regeneration drops the first token for good.
    const again = await c.admin.post('/api/rota/node/api/v1/rotate_token', { id: rota_nodes_id });
    expect(again.status).toBe(200);
    expect((await oldAgent.heartbeat([])).status).toBe(401);
    expect((await newAgent.heartbeat([])).status).toBe(200);
    expect((await simulatedAgent(t.app, fresh).hello()).status).toBe(401);
  });
});
