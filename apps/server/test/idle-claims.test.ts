import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../src/lib/clock.js';
import { releaseClaim } from '../src/modules/executions/claim-statements.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * Idle claims: an idle agent claims every heartbeat interval, and a claim skips its
 * statement while the client's queue is known empty (`EmptyQueues`, 1 s). A run announced queued
 * is claimed at once all the same; one that reached the queue unannounced is found within that
 * second (of the app's clock, which the test moves).
 */

describe('claims while the queue is empty', () => {
  let t: TestApp;
  const clock = new FakeClock(new Date('2026-03-02T10:00:00Z'));
  let c: Tenants;
  let vm: number;
  let first: { rota_nodes_id: number; agent: ReturnType<typeof simulatedAgent> };
  let second: ReturnType<typeof simulatedAgent>;

  beforeAll(async () => {
    t = await createTestApp({ engine: { loop: false }, clock });
    c = await setUpTenants(t);
    vm = await createVm(c.admin, 'Idle VM');
    const made = await createAgent(c.admin, 'Idle first', vm);
    first = { rota_nodes_id: made.rota_nodes_id, agent: simulatedAgent(t.app, made.token) };
    second = simulatedAgent(t.app, (await createAgent(c.admin, 'Idle second', vm)).token);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('hands out at once a run announced just after a claim found the queue empty', async () => {
    expect(await second.claim(0)).toBeNull();
    const robot = await createRobot(c.admin, 'Idle announced');
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    expect((await second.claim(0))?.execution_id).toBe(id);
  });

  it('finds within a second a run that reached the queue unannounced, and skips the statement until then', async () => {
    const robot = await createRobot(c.admin, 'Idle unannounced');
    const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
    const claimed = await first.agent.claim(0);
    expect(claimed?.execution_id).toBe(id);
    // Past the once-a-second limit on looking, so that this empty claim looks.
    clock.advance(1_100);
    expect(await second.claim(0)).toBeNull();
    // Back in the queue without a word to anyone (giveBack would announce it).
    expect(await releaseClaim(t.db, first.rota_nodes_id, id, claimed!.attempt)).toBe(true);
    // Known empty: the claim does not ask the database.
    expect(await second.claim(0)).toBeNull();
    clock.advance(1_100);
    expect((await second.claim(0))?.execution_id).toBe(id);
  });
});
