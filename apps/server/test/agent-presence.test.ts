import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/lib/tokens.js';
import {
  AgentPresenceService,
  type AgentBack,
  type PresenceFlush,
} from '../src/modules/agents/presence-service.js';
import { CHANNELS, messagesOf, type ScopedLiveEvent } from '../src/modules/dispatch/live-events.js';
import { simulatedAgent } from './helpers/engine.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import {
  ADMIN,
  client,
  createTestApp,
  createTwoInstances,
  signIn,
  type TestApp,
} from './helpers/test-app.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

/**
 * Heartbeats at scale: a heartbeat writes nothing on the request path; the agents
 * heard are written once a second in one statement (`presence.flush()`, which tests call), and
 * an agent coming back is announced after that write. Identities are cached long, so a deleted
 * or rotated agent must still be refused at once, here and on other instances.
 */
const NODES = '/api/rota/node/api/v1';

async function lastSeenOf(t: TestApp, id: number) {
  const result = (await t.db.execute(
    sql`select last_seen_at, online from rota_nodes where rota_nodes_id = ${id}`,
  )) as unknown as { rows: { last_seen_at: Date | string | null; online: boolean }[] };
  return result.rows[0]!;
}

/** Resolves with the first `agent` live event of `agentId` published through `t`'s bus. */
/**
 * The next `agent` event of this agent with this connectivity: console events are batched (up to
 * 20 ms) and cross NOTIFY on PostgreSQL, so an earlier event may still be on its way.
 */
function nextAgentEvent(t: TestApp, agentId: number, connectivity: 'active' | 'inactive') {
  return new Promise<ScopedLiveEvent>((resolve) => {
    const stop = t.events.subscribe(CHANNELS.live, (payload) => {
      for (const m of messagesOf<ScopedLiveEvent>(payload)) {
        if (
          m.e.type === 'agent' &&
          m.e.rota_nodes_id === agentId &&
          m.e.connectivity === connectivity
        ) {
          stop();
          resolve(m);
        }
      }
    });
  });
}

describe('heartbeats on one instance', () => {
  let t: TestApp;
  let c: Tenants;
  let vm: number;

  beforeAll(async () => {
    t = await createTestApp({ engine: { loop: false } });
    c = await setUpTenants(t);
    vm = await createVm(c.admin, 'Presence VM');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes nothing per heartbeat, then every agent heard in one flush', async () => {
    await t.app.services.presence.flush();
    const agents = [];
    for (let i = 0; i < 3; i += 1) {
      const { token, rota_nodes_id } = await createAgent(c.admin, `Beating ${i}`, vm);
      agents.push({ id: rota_nodes_id, beat: simulatedAgent(t.app, token) });
    }
    for (let round = 0; round < 5; round += 1) {
      for (const a of agents) expect((await a.beat.heartbeat()).status).toBe(200);
    }
    // Fifteen heartbeats, no write yet: never seen.
    for (const a of agents) expect((await lastSeenOf(t, a.id)).last_seen_at).toBeNull();
    const flushed = await t.app.services.presence.flush();
    // One row per agent, and all three were offline until now.
    expect(flushed.written).toBe(3);
    expect(flushed.back.map((b) => b.id).sort()).toEqual(agents.map((a) => a.id).sort());
    for (const a of agents) {
      const row = await lastSeenOf(t, a.id);
      expect(row.online).toBe(true);
      expect(row.last_seen_at).not.toBeNull();
    }
    // Nothing heard since: nothing to write.
    expect((await t.app.services.presence.flush()).written).toBe(0);
    const list = await c.admin.post(`${NODES}/index`, { connectivity: 'active', per_page: 100 });
    expect(list.body.data.map((a: { rota_nodes_id: number }) => a.rota_nodes_id)).toEqual(
      expect.arrayContaining(agents.map((a) => a.id)),
    );
  });

  it('counts a claim as a heartbeat (hello says so): heard when it arrives, written by the flush', async () => {
    await t.app.services.presence.flush();
    const { token, rota_nodes_id } = await createAgent(c.admin, 'Claiming only', vm);
    const agent = simulatedAgent(t.app, token);
    const hello = await agent.hello();
    expect(hello.body.data).toMatchObject({ claim_is_heartbeat: true });
    // Last heard two minutes ago: offline.
    await setLastSeen(t.db, rota_nodes_id, 120);
    await t.app.services.presence.markQuiet();
    expect((await lastSeenOf(t, rota_nodes_id)).online).toBe(false);
    // No heartbeat: a claim that finds nothing is all the agent sends.
    expect(await agent.claim(0)).toBeNull();
    const flushed = await t.app.services.presence.flush();
    expect(flushed.back.map((b) => b.id)).toContain(rota_nodes_id);
    const row = await lastSeenOf(t, rota_nodes_id);
    expect(row.online).toBe(true);
    expect(Date.now() - new Date(row.last_seen_at!).getTime()).toBeLessThan(60_000);
  });

  it('identifies agents asking at once by one statement: current, retired and unknown tokens', async () => {
    const made = [];
    for (let i = 0; i < 4; i += 1) made.push(await createAgent(c.admin, `Storm ${i}`, vm));
    const rotated = made[3]!;
    const answer = await c.admin.post(`${NODES}/rotate_token`, { id: rotated.rota_nodes_id });
    expect(answer.status).toBe(200);
    const fresh = answer.body.data.token as string;
    const presence = t.app.services.presence;
    const [a, b, sameAgain, retired, current, unknown] = await Promise.all([
      presence.identify(hashToken(made[0]!.token)),
      presence.identify(hashToken(made[1]!.token)),
      presence.identify(hashToken(made[0]!.token)),
      presence.identify(hashToken(rotated.token)),
      presence.identify(hashToken(fresh)),
      presence.identify(hashToken('not an agent token')),
    ]);
    expect(a).toMatchObject({ rota_nodes_id: made[0]!.rota_nodes_id, retired: false });
    expect(sameAgain).toEqual(a);
    expect(b).toMatchObject({
      rota_nodes_id: made[1]!.rota_nodes_id,
      rota_clients_id: c.defaultClientId,
      rota_vms_id: vm,
      name: 'Storm 1',
      retired: false,
    });
    expect(retired).toMatchObject({ rota_nodes_id: rotated.rota_nodes_id, retired: true });
    expect(current).toMatchObject({ rota_nodes_id: rotated.rota_nodes_id, retired: false });
    expect(unknown).toBeUndefined();
    // Through the protocol, all at once: every agent heard, the bogus token refused.
    const beats = await Promise.all([
      ...made.slice(0, 3).map((m) => simulatedAgent(t.app, m.token).heartbeat()),
      simulatedAgent(t.app, 'bogus').heartbeat(),
    ]);
    expect(beats.map((r) => r.status)).toEqual([200, 200, 200, 401]);
    expect((await presence.flush()).written).toBe(3);
  });

  it('announces an agent back from offline after the flush, not before', async () => {
    const { token, rota_nodes_id: id } = await createAgent(c.admin, 'Coming back', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    // Gone quiet: the engine marks it offline (and says so before the agent comes back).
    const offline = nextAgentEvent(t, id, 'inactive');
    await setLastSeen(t.db, id, 3600);
    await t.app.engine.tick();
    await offline;
    expect((await c.admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('inactive');

    expect((await agent.heartbeat()).status).toBe(200);
    expect((await c.admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('inactive');
    const event = nextAgentEvent(t, id, 'active');
    const flushed = await t.app.services.presence.flush();
    expect(flushed.back).toEqual([{ id, client: expect.any(Number) }]);
    expect((await event).e).toEqual({ type: 'agent', rota_nodes_id: id, connectivity: 'active' });
    expect((await c.admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('active');
    const active = await c.admin.post(`${NODES}/index`, { connectivity: 'active', per_page: 100 });
    expect(active.body.data.map((a: { rota_nodes_id: number }) => a.rota_nodes_id)).toContain(id);
    const inactive = await c.admin.post(`${NODES}/index`, {
      connectivity: 'inactive',
      per_page: 100,
    });
    expect(inactive.body.data.map((a: { rota_nodes_id: number }) => a.rota_nodes_id)).not.toContain(
      id,
    );

    // Heard again while online: written, not announced again.
    expect((await agent.heartbeat()).status).toBe(200);
    expect(await t.app.services.presence.flush()).toEqual({
      written: 1,
      back: [],
      reconnected: [],
    });
  });

  it('keeps an agent that said goodbye inactive, even with a heartbeat not yet written', async () => {
    const { token, rota_nodes_id: id } = await createAgent(c.admin, 'Leaving', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    expect((await agent.heartbeat()).status).toBe(200);
    const bye = await client(t.app, { token }).post('/api/rota/agent/api/v1/goodbye', {
      running: [],
    });
    expect(bye.status).toBe(200);
    expect((await t.app.services.presence.flush()).back).toEqual([]);
    expect((await c.admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('inactive');
  });

  it('keeps an agent inactive whose goodbye commits while the flush writing it waits', async () => {
    const { token, rota_nodes_id: id } = await createAgent(c.admin, 'Leaving mid-flush', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    expect((await agent.heartbeat()).status).toBe(200);
    const presence = t.app.services.presence;
    let flushed!: Promise<PresenceFlush>;
    await t.db.transaction(async (tx) => {
      // The goodbye's transaction holds the agent's row: the flush, which already took the
      // heartbeat, writes it once the goodbye has committed.
      await tx.execute(sql`select 1 from rota_nodes where rota_nodes_id = ${id} for update`);
      flushed = presence.flush();
      await presence.signedOff(tx, id);
    });
    expect((await flushed).back.map((b) => b.id)).not.toContain(id);
    expect((await lastSeenOf(t, id)).online).toBe(false);
    expect((await c.admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('inactive');
  });

  it('keeps an agent inactive that said goodbye to one instance while another held its heartbeat', async () => {
    const { token, rota_nodes_id: id } = await createAgent(c.admin, 'Moved, then left', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.hello()).status).toBe(200);
    // Another instance heard it last (its stream was there) and has not written that yet.
    const announced: AgentBack[] = [];
    const elsewhere = new AgentPresenceService(t.db, {
      back: (agents) => announced.push(...agents),
    });
    elsewhere.heard(id, c.defaultClientId);
    const bye = await client(t.app, { token }).post('/api/rota/agent/api/v1/goodbye', {
      running: [],
    });
    expect(bye.status).toBe(200);
    expect(await elsewhere.flush()).toEqual({ written: 0, back: [], reconnected: [] });
    expect((await lastSeenOf(t, id)).online).toBe(false);
    expect(announced).toEqual([]);
    // Heard after the goodbye (it started again): written, and back.
    elsewhere.heard(id, c.defaultClientId);
    expect(await elsewhere.flush()).toEqual({
      written: 1,
      back: [{ id, client: c.defaultClientId }],
      reconnected: [],
    });
    expect((await lastSeenOf(t, id)).online).toBe(true);
  });

  it('refuses a deleted agent at once, although its identity was cached', async () => {
    const { token, rota_nodes_id: id } = await createAgent(c.admin, 'Doomed', vm);
    const agent = simulatedAgent(t.app, token);
    expect((await agent.heartbeat()).status).toBe(200);
    expect((await c.admin.post(`${NODES}/delete`, { id })).status).toBe(202);
    expect((await agent.heartbeat()).status).toBe(401);
    // What it was heard saying before is written to no row.
    expect((await t.app.services.presence.flush()).back.map((b) => b.id)).not.toContain(id);
  });
});

/** What only PostgreSQL has: NOTIFY between instances, and a LISTEN connection that can drop. */
describe.skipIf(!process.env.DATABASE_URL)('agent identities across instances', () => {
  let first: TestApp;
  let second: TestApp;
  let admin: ReturnType<typeof client>;
  let vm: number;

  beforeAll(async () => {
    ({ first, second } = await createTwoInstances());
    admin = client(first.app, { token: await signIn(first.app, ADMIN.access, ADMIN.password) });
    vm = await createVm(admin, 'Two-instance VM');
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('keeps an agent inactive whose goodbye reached one instance while the other held its heartbeat', async () => {
    const { token, rota_nodes_id: id } = await createAgent(admin, 'Failed over, then left', vm);
    expect((await simulatedAgent(second.app, token).heartbeat()).status).toBe(200);
    const bye = await client(first.app, { token }).post('/api/rota/agent/api/v1/goodbye', {
      running: [],
    });
    expect(bye.status).toBe(200);
    expect((await second.app.services.presence.flush()).back.map((b) => b.id)).not.toContain(id);
    expect((await admin.post(`${NODES}/show`, { id })).body.data.connectivity).toBe('inactive');
  });

  it('refuses on the other instance once the NOTIFY of a deletion arrives', async () => {
    const { token, rota_nodes_id: id } = await createAgent(admin, 'Deleted elsewhere', vm);
    const onSecond = simulatedAgent(second.app, token);
    expect((await onSecond.heartbeat()).status).toBe(200);
    const heard = new Promise<void>((resolve) => {
      const stop = second.events.subscribe('rota_agents', () => {
        stop();
        resolve();
      });
    });
    expect((await admin.post(`${NODES}/delete`, { id })).status).toBe(202);
    await heard;
    expect((await onSecond.heartbeat()).status).toBe(401);
  });

  it('forgets every cached identity when the LISTEN connection comes back', async () => {
    const { token, rota_nodes_id: id } = await createAgent(admin, 'Changed unheard', vm);
    const agent = simulatedAgent(first.app, token);
    expect((await agent.heartbeat()).status).toBe(200);
    // A change whose NOTIFY never comes (as if sent while the connection was down): the cached
    // identity still answers, which is what makes the next step prove something.
    await first.db.execute(
      sql`update rota_nodes set token_hash = 'unheard', retired_token_hash = null where rota_nodes_id = ${id}`,
    );
    expect((await agent.heartbeat()).status).toBe(200);

    const back = new Promise<void>((resolve) => {
      const stop = first.events.onGap((listening) => {
        if (!listening) return;
        stop();
        resolve();
      });
    });
    // Drop every LISTEN connection of this database (both instances'): they reconnect.
    await first.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid()
             and query ilike 'listen %'`,
    );
    await back;
    expect((await agent.heartbeat()).status).toBe(401);
  });
});
