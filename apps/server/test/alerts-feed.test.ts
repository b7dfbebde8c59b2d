import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent, Permission } from '@rota/contract';
import { FakeClock } from '../src/lib/clock.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { openStream } from './helpers/event-stream.js';
import { createRobot } from './helpers/robots.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

const FEED = '/api/rota/alert/feed/api/v1';
const MINUTE = 60_000;

interface FeedItem {
  rota_alert_events_id: number;
  type: string;
  rota_robots_id: number | null;
}

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
let base: string;
let agent: ReturnType<typeof simulatedAgent>;
let agentId: number;
let teamRobot: number;
let otherRobot: number;

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const vm = await createVm(c.admin, 'Feed VM');
  const created = await createAgent(c.admin, 'Feed agent', vm);
  agentId = created.rota_nodes_id;
  agent = simulatedAgent(t.app, created.token);
  expect((await agent.hello()).status).toBe(200);
  teamRobot = await createRobot(c.admin, 'Team robot');
  otherRobot = await createRobot(c.admin, 'Other robot');
});
afterAll(async () => {
  await t?.close();
});

async function failRun(robot: number) {
  await runNow(c.admin, { id: robot });
  const run = await agent.claim();
  expect(run?.robot.rota_robots_id).toBe(robot);
  const done = await agent.finish(run!.execution_id, run!.attempt, 'application_error', 2, 'down');
  expect(done.status).toBe(200);
}

/** agent.lost, then agent.back: the engine finds it quiet, a heartbeat brings it back. */
async function loseAndRegainAgent() {
  await setLastSeen(t.db, agentId, 3600);
  await t.app.engine.tick();
  expect((await agent.heartbeat()).status).toBe(200);
  await t.app.services.presence.flush();
}

/** A task of `robot` that turns at risk: its deadline 30 minutes ahead, 10 of risk, 21 pass. */
async function taskAtRisk(robot: number) {
  await c.admin.put('/api/rota/robot/api/v1/update', { id: robot, task_risk_minutes: 10 });
  const start = clock.now().getTime();
  const task = await c.admin.post('/api/rota/task/api/v1/create', {
    rota_robots_id: robot,
    label: 'Feed task',
    expiration_date: '2099-12-31',
    deadline: new Date(start + 30 * MINUTE).toISOString(),
  });
  expect(task.status).toBe(201);
  clock.set(new Date(start + 21 * MINUTE));
  await t.app.engine.tick();
}

const user = (access: string, permissions: readonly Permission[]) =>
  signedInUser(t, c.defaultClientId, access, { permissions });

async function feedOf(as: Tenants['admin'], limit = 100) {
  const res = await as.post(`${FEED}/index`, { limit });
  expect(res.status).toBe(200);
  return res.body as { data: FeedItem[]; unread: number };
}

const typesOf = (items: FeedItem[]) => [...new Set(items.map((e) => e.type))].sort();

describe('the bell lists only what the user may see', () => {
  beforeAll(async () => {
    await failRun(teamRobot);
    await failRun(otherRobot);
    await taskAtRisk(teamRobot);
    // The newest events are the agent's: a filter after paging would leave a short page.
    await loseAndRegainAgent();
  });

  it('by permission: agent events need the agents list, runs Activity, task events the tasks', async () => {
    const admin = await feedOf(c.admin);
    expect(typesOf(admin.data)).toEqual([
      'agent.back',
      'agent.lost',
      'execution.application_error',
      'task.at_risk',
    ]);

    const activity = await user('feed-activity', ['HISTORIC.LIST', 'ROBOS.LIST']);
    const runs = await feedOf(activity.as);
    expect(typesOf(runs.data)).toEqual(['execution.application_error']);
    expect(runs.data.map((e) => e.rota_robots_id)).toEqual([otherRobot, teamRobot]);
    expect(runs.unread).toBe(2);
    // Filtered in the query: the one newest event they may see, though newer agent events exist.
    const one = await feedOf(activity.as, 1);
    expect(one.data.map((e) => [e.type, e.rota_robots_id])).toEqual([
      ['execution.application_error', otherRobot],
    ]);
    expect(one.unread).toBe(2);

    const agents = await feedOf((await user('feed-agents', ['AGENTES.LIST'])).as);
    expect(agents.data.map((e) => [e.type, e.rota_robots_id])).toEqual([
      ['agent.back', null],
      ['agent.lost', null],
    ]);
    expect(agents.unread).toBe(2);

    const tasks = await feedOf((await user('feed-tasks', ['ATIVIDADES.LIST'])).as);
    expect(tasks.data.map((e) => [e.type, e.rota_robots_id])).toEqual([
      ['task.at_risk', teamRobot],
    ]);

    const nobody = await feedOf((await user('feed-nobody', ['USUARIOS.LIST'])).as);
    expect(nobody).toEqual({ data: [], unread: 0 });
  });

  it('by team: a member sees their robots\u2019 events and the agents\u2019, not other robots\u2019', async () => {
    const member = await user('feed-member', ['HISTORIC.LIST', 'AGENTES.LIST', 'ATIVIDADES.LIST']);
    await createTeam(c.admin, 'Feed team', { robots: [teamRobot], users: [member.id] });
    const feed = await feedOf(member.as);
    expect(feed.data.map((e) => [e.type, e.rota_robots_id])).toEqual([
      ['agent.back', null],
      ['agent.lost', null],
      ['task.at_risk', teamRobot],
      ['execution.application_error', teamRobot],
    ]);
    expect(feed.unread).toBe(4);
    // Marked read up to the newest of all, the count stays among what they see.
    const newest = (await feedOf(c.admin, 1)).data[0]!.rota_alert_events_id;
    expect((await member.as.post(`${FEED}/seen`, { up_to: newest })).status).toBe(204);
    expect((await feedOf(member.as)).unread).toBe(0);
  });
});

describe('the live stream tells only what the user may see', () => {
  const isAgentNews = (e: { data: LiveEvent }) =>
    e.data.type === 'agent' || (e.data.type === 'alert' && e.data.event_type.startsWith('agent.'));
  const isRunAlert = (robot: number) => (e: { data: LiveEvent }) =>
    e.data.type === 'alert' &&
    e.data.event_type === 'execution.application_error' &&
    e.data.rota_robots_id === robot;

  it('no agent event without the agents permission; a member of teams hears of their robots only', async () => {
    const activity = await user('live-activity', ['HISTORIC.LIST']);
    const member = await user('live-member', ['HISTORIC.LIST', 'AGENTES.LIST']);
    await createTeam(c.admin, 'Live team', { robots: [teamRobot], users: [member.id] });
    const admin = await openStream(base, c.adminToken);
    const noAgents = await openStream(base, activity.token);
    const teamed = await openStream(base, member.token);

    await loseAndRegainAgent();
    await t.app.services.alerts.worker.fanOut();
    await failRun(otherRobot);
    await failRun(teamRobot);
    await t.app.services.alerts.worker.fanOut();

    await admin.waitFor(() => admin.events.some(isRunAlert(teamRobot)));
    // What the others may not hear was sent to the admin first, on the same client.
    expect(admin.events.filter((e) => e.data.type === 'agent').length).toBeGreaterThan(0);
    expect(admin.events.map((e) => e.data)).toContainEqual(
      expect.objectContaining({ type: 'alert', event_type: 'agent.lost', rota_robots_id: null }),
    );
    expect(admin.events.some(isRunAlert(otherRobot))).toBe(true);

    // Each stream is one connection in order: the last alert arrived, so the earlier did too.
    await noAgents.waitFor(() => noAgents.events.some(isRunAlert(teamRobot)));
    expect(noAgents.events.some(isRunAlert(teamRobot))).toBe(true);
    expect(noAgents.events.filter(isAgentNews)).toEqual([]);
    expect(noAgents.events.some(isRunAlert(otherRobot))).toBe(true);

    await teamed.waitFor(() => teamed.events.some(isRunAlert(teamRobot)));
    expect(teamed.events.some(isRunAlert(teamRobot))).toBe(true);
    expect(teamed.events.filter(isAgentNews).length).toBeGreaterThan(0);
    expect(
      teamed.events.filter(
        (e) => 'rota_robots_id' in e.data && e.data.rota_robots_id === otherRobot,
      ),
    ).toEqual([]);

    await Promise.all([admin.close(), noAgents.close(), teamed.close()]);
  });
});
