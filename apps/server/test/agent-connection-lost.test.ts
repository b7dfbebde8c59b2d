import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@rota/contract';
import { openStream } from './helpers/agent-stream.js';
import { executionOf, runNow, simulatedAgent } from './helpers/engine.js';
import { openStream as openEventStream } from './helpers/event-stream.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/**
 * An agent whose stream closes without a goodbye (its machine died, its network went): the
 * agent and its running runs say "connection lost" at once, live; the lease still decides
 * whether the runs go on (the agent is back in time) or are settled (it is not).
 */
let t: TestApp;
let c: Tenants;
let origin: string;
let vm: number;
let robot: number;

const NODES = '/api/rota/node/api/v1';

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t);
  vm = await createVm(c.admin, 'Lost connection VM');
  robot = await createRobot(c.admin, 'Lost connection robot');
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

type Live = Awaited<ReturnType<typeof openEventStream>>;

const connectionEvent =
  (kind: 'agent' | 'execution', id: number, lost: boolean) =>
  ({ data }: { data: LiveEvent }) =>
    data.type === kind &&
    (data.type === 'agent'
      ? data.rota_nodes_id
      : (data as { execution_id: number }).execution_id) === id &&
    (data as { connection_lost?: boolean }).connection_lost === lost;

async function heard(live: Live, predicate: ReturnType<typeof connectionEvent>) {
  await live.waitFor(() => live.events.some(predicate));
  expect(live.events.some(predicate)).toBe(true);
}

async function agentShown(id: number) {
  const res = await c.admin.post(`${NODES}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data as { connectivity: string; connection_lost_at: string | null };
}

/** An online agent on the stream, running one run it claimed there. */
async function agentRunningOne(name: string) {
  const { token, rota_nodes_id: agentId } = await createAgent(c.admin, name, vm);
  expect((await simulatedAgent(t.app, token).hello()).status).toBe(200);
  const stream = await openStream(origin, token);
  const id = await runNow(c.admin, { id: robot, rota_vms_id: vm });
  const claimed = await stream.call('claim', { wait_seconds: 0 });
  expect(claimed.body.data).toMatchObject({ execution_id: id, attempt: 1 });
  return { token, agentId, stream, id };
}

describe('an agent whose stream dies without a goodbye', () => {
  it('shows the agent and its run "connection lost" at once, live, and nothing else changes', async () => {
    const live = await openEventStream(origin, c.adminToken);
    const { agentId, stream, id } = await agentRunningOne('Lost at once');
    stream.socket.terminate();
    await heard(live, connectionEvent('execution', id, true));
    await heard(live, connectionEvent('agent', agentId, true));
    await live.close();
    const run = await executionOf(c.admin, id);
    expect(run).toMatchObject({ status: 'processing', attempts: 1 });
    expect(run.connection_lost_at).not.toBeNull();
    // Connectivity keeps its heartbeat window; the lost connection is said beside it.
    const agent = await agentShown(agentId);
    expect(agent.connectivity).toBe('active');
    expect(agent.connection_lost_at).toBe(run.connection_lost_at);
  });

  it('lets its runs go on when it is back within the lease: one attempt, the marks cleared live', async () => {
    const { token, agentId, stream, id } = await agentRunningOne('Back in time');
    const live = await openEventStream(origin, c.adminToken);
    stream.socket.terminate();
    await heard(live, connectionEvent('execution', id, true));
    // It reconnects and heartbeats its run: still its own (same attempt, not cancelled). The
    // presence flush that covers a heartbeat heard after the loss clears the marks (the first
    // may have gathered since before the loss; the agent beats again).
    const again = await openStream(origin, token);
    for (let beats = 0; beats < 2; beats += 1) {
      const beat = await again.call('heartbeat', { running: [{ execution_id: id, attempt: 1 }] });
      expect(beat.body.data).toEqual({ cancel: [], stop: [] });
      await t.app.services.presence.flush();
    }
    await heard(live, connectionEvent('execution', id, false));
    await heard(live, connectionEvent('agent', agentId, false));
    await live.close();
    expect((await executionOf(c.admin, id)).connection_lost_at).toBeNull();
    expect((await agentShown(agentId)).connection_lost_at).toBeNull();
    const finished = await again.call('finish', {
      execution_id: id,
      attempt: 1,
      status: 'success',
      exit_code: 0,
      message: null,
    });
    expect(finished.body.data.accepted).toBe(true);
    expect(await executionOf(c.admin, id)).toMatchObject({ status: 'success', attempts: 1 });
    again.socket.close();
  });

  it('clears the agent’s mark at once when it says hello again, its runs’ when it renews them', async () => {
    const { token, agentId, stream, id } = await agentRunningOne('Said hello again');
    const live = await openEventStream(origin, c.adminToken);
    stream.socket.terminate();
    await heard(live, connectionEvent('agent', agentId, true));
    expect((await simulatedAgent(t.app, token).hello()).status).toBe(200);
    await heard(live, connectionEvent('agent', agentId, false));
    expect((await agentShown(agentId)).connection_lost_at).toBeNull();
    // A new process of the agent would not have the run: it still waits, marked.
    expect((await executionOf(c.admin, id)).connection_lost_at).not.toBeNull();
    // This one does, and says so.
    const beat = await simulatedAgent(t.app, token).post('/api/rota/agent/api/v1/heartbeat', {
      running: [{ execution_id: id, attempt: 1 }],
    });
    expect(beat.body.data).toEqual({ cancel: [], stop: [] });
    await heard(live, connectionEvent('execution', id, false));
    await live.close();
    expect((await executionOf(c.admin, id)).connection_lost_at).toBeNull();
  });

  it('keeps the run of an agent restarted after the loss marked: it waits for its lease', async () => {
    const { token, agentId, stream, id } = await agentRunningOne('Restarted');
    const live = await openEventStream(origin, c.adminToken);
    stream.socket.terminate();
    await heard(live, connectionEvent('execution', id, true));
    const lostAt = (await executionOf(c.admin, id)).connection_lost_at;
    // The new process says hello and heartbeats what it runs: nothing.
    const restarted = simulatedAgent(t.app, token);
    expect((await restarted.hello()).status).toBe(200);
    await heard(live, connectionEvent('agent', agentId, false));
    await live.close();
    expect((await restarted.heartbeat()).status).toBe(200);
    expect((await executionOf(c.admin, id)).connection_lost_at).toBe(lostAt);
    await t.db.execute(
      sql`update rota_executions set lease_expires_at = now() - interval '1 minute'
           where rota_executions_id = ${id}`,
    );
    await t.app.engine.reapLostRuns();
    const settled = await executionOf(c.admin, id);
    expect(settled).toMatchObject({ status: 'application_error', message: 'agent lost' });
    expect(settled.attempt_list[0]!.end_date).toBe(lostAt);
  });

  it('settles its run when the lease runs out, the attempt ending when the connection was lost', async () => {
    const { agentId, stream, id } = await agentRunningOne('Never back');
    const live = await openEventStream(origin, c.adminToken);
    stream.socket.terminate();
    await heard(live, connectionEvent('execution', id, true));
    await live.close();
    const lostAt = (await executionOf(c.admin, id)).connection_lost_at;
    // The lease ran out a while ago (the database's clock, not a sleep).
    await t.db.execute(
      sql`update rota_executions set lease_expires_at = now() - interval '1 minute'
           where rota_executions_id = ${id}`,
    );
    await t.app.engine.reapLostRuns();
    const settled = await executionOf(c.admin, id);
    expect(settled).toMatchObject({
      status: 'application_error',
      message: 'agent lost',
      connection_lost_at: null,
    });
    expect(settled.attempt_list).toHaveLength(1);
    expect(settled.attempt_list[0]!.end_date).toBe(lostAt);
    const shown = (await c.admin.post('/api/rota/activity/api/v1/show', { id })).body.data;
    expect(shown.end_date).toBe(lostAt);
    // Its duration is the attempt's own time, the wait for the lease left out.
    const own = Date.parse(lostAt!) - Date.parse(settled.attempt_list[0]!.start_date);
    expect(Math.abs(shown.duration_ms - own)).toBeLessThanOrEqual(1);
    expect((await agentShown(agentId)).connection_lost_at).toBe(lostAt);
  });

  it('is not lost when it said goodbye first (a clean stop)', async () => {
    const { token, agentId, stream, id } = await agentRunningOne('Clean stop');
    const live = await openEventStream(origin, c.adminToken);
    const bye = await simulatedAgent(t.app, token).post('/api/rota/agent/api/v1/goodbye', {
      running: [{ execution_id: id, attempt: 1 }],
    });
    expect(bye.status).toBe(200);
    const lost = vi.spyOn(t.app.services.dispatch, 'connectionLost');
    stream.socket.terminate();
    // The server took the close for a lost connection and checked the agent: it was offline.
    await live.waitFor(() => lost.mock.calls.some(([agent]) => agent.rota_nodes_id === agentId));
    const call = lost.mock.calls.findIndex(([agent]) => agent.rota_nodes_id === agentId);
    await lost.mock.results[call]!.value;
    lost.mockRestore();
    await live.close();
    expect((await agentShown(agentId)).connection_lost_at).toBeNull();
    expect((await executionOf(c.admin, id)).connection_lost_at).toBeNull();
  });
});
