import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';
import { ACTIVITY, RUN_API, executionOf, runNow, simulatedAgent } from './helpers/engine.js';

let t: TestApp;
let c: Tenants;
let agent: ReturnType<typeof simulatedAgent>;

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  const vm = await createVm(c.admin, 'Stop VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Stop agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A run of a new robot, claimed by the agent: processing, with its run token. */
async function processingRun(name: string, body: Record<string, unknown> = {}) {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status = 'queued'`,
  );
  const robot = await createRobot(c.admin, name);
  const id = await runNow(c.admin, { id: robot, ...body });
  const run = await agent.claim();
  expect(run?.execution_id).toBe(id);
  return { id, run: run!, robot: client(t.app, { token: run!.environment.ROTA_EXECUTION_TOKEN }) };
}

async function auditOf(id: number, action: string) {
  const rows = await t.db.execute(
    sql`select after from audit_logs where entity = 'execution' and entity_id = ${String(id)}
         and action = ${action}`,
  );
  return (rows as unknown as { rows: { after: unknown }[] }).rows ?? rows;
}

describe('stop gracefully', () => {
  it('cancels a queued execution at once', async () => {
    await t.db.execute(
      sql`update rota_executions set status = 'cancelled', ended_at = now() where status = 'queued'`,
    );
    const robot = await createRobot(c.admin, 'Stop queued');
    const id = await runNow(c.admin, { id: robot });
    const res = await c.admin.post(`${ACTIVITY}/stop`, { id });
    expect(res.status).toBe(202);
    expect(res.body.message).toBe('Execution cancelled');
    expect((await executionOf(c.admin, id)).status).toBe('cancelled');
    expect(await agent.claim()).toBeNull();
  });

  it('asks a processing run to stop: status, heartbeat and logs carry the grace', async () => {
    const { id, run, robot } = await processingRun('Stop running');
    expect((await robot.post(`${RUN_API}/status`, {})).body.data).toEqual({
      stop_requested: false,
    });
    const res = await c.admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 5 });
    expect(res.status).toBe(202);
    expect(res.body.message).toMatch(/stop sent/i);
    expect((await robot.post(`${RUN_API}/status`, {})).body).toEqual({
      data: { stop_requested: true },
    });
    const beat = await agent.heartbeat([{ execution_id: id, attempt: run.attempt }]);
    expect(beat.body.data).toEqual({
      cancel: [id],
      stop: [{ execution_id: id, grace_seconds: 5 }],
    });
    expect((await agent.logs(id, run.attempt, ['bye'])).body.data).toEqual({
      cancel: true,
      stop_grace_seconds: 5,
    });
    // A second stop may shorten the grace; a kill now ends it.
    await c.admin.post(`${ACTIVITY}/stop`, { id, grace_seconds: 60 });
    expect((await agent.logs(id, run.attempt, [], 2)).body.data.stop_grace_seconds).toBe(5);
    await c.admin.post(`${ACTIVITY}/cancel`, { id });
    expect((await agent.logs(id, run.attempt, [], 2)).body.data).toEqual({ cancel: true });
    expect((await agent.heartbeat([{ execution_id: id, attempt: run.attempt }])).body.data).toEqual(
      { cancel: [id], stop: [] },
    );
    // The agent's result: the run ends cancelled with its words.
    expect(
      (await agent.finish(id, run.attempt, 'cancelled', null, 'killed after 5 s')).status,
    ).toBe(200);
    expect(await executionOf(c.admin, id)).toMatchObject({
      status: 'cancelled',
      message: 'killed after 5 s',
    });
    expect(await auditOf(id, 'stop')).toHaveLength(2);
  });

  it('validates grace_seconds', async () => {
    for (const grace_seconds of [601, -1, '30', 1.5, null]) {
      const res = await c.admin.post(`${ACTIVITY}/stop`, { id: 1, grace_seconds });
      expect(res.status, String(grace_seconds)).toBe(400);
      expect(res.body.errors?.[0]?.field ?? res.body.fields).toBeTruthy();
    }
  });

  it("keeps to the client's own executions and needs HISTORIC.UPDATE", async () => {
    const { id } = await processingRun('Stop tenancy');
    expect((await c.other.post(`${ACTIVITY}/stop`, { id })).status).toBe(404);
    expect((await c.other.post(`${ACTIVITY}/fail`, { id })).status).toBe(404);
    expect((await c.limited.post(`${ACTIVITY}/stop`, { id })).status).toBe(403);
    expect((await c.limited.post(`${ACTIVITY}/fail`, { id })).status).toBe(403);
    expect((await executionOf(c.admin, id)).status).toBe('processing');
  });
});

describe('mark as failed', () => {
  it('ends a processing run now, audited, no retry, and fences its agent', async () => {
    const { id, run, robot } = await processingRun('Mark failed', { retries: 3 });
    const res = await c.admin.post(`${ACTIVITY}/fail`, { id });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Execution marked as failed');
    const execution = await executionOf(c.admin, id);
    expect(execution).toMatchObject({ status: 'application_error', attempts: 1 });
    expect(execution.message).toMatch(/^ended by \S/);
    expect(await auditOf(id, 'mark_failed')).toHaveLength(1);
    // Fenced: the run token is refused, the agent is told to stop, its result is late.
    expect((await robot.post(`${RUN_API}/status`, {})).status).toBe(409);
    expect((await agent.logs(id, run.attempt, ['late'])).body.data.cancel).toBe(true);
    expect(
      (await agent.heartbeat([{ execution_id: id, attempt: run.attempt }])).body.data.cancel,
    ).toEqual([id]);
    expect((await agent.finish(id, run.attempt, 'success', 0)).status).toBe(409);
    expect((await executionOf(c.admin, id)).status).toBe('application_error');
    // Only a processing run.
    expect((await c.admin.post(`${ACTIVITY}/fail`, { id })).status).toBe(409);
  });
});
