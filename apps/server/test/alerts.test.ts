import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaAlertEvents, rotaAlerts } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { auditOf } from './helpers/administration.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { createTeam, signedInUser } from './helpers/teams.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

const ALERTS = '/api/rota/alert/api/v1';
const DELIVERIES = '/api/rota/alert/delivery/api/v1';
const FEED = '/api/rota/alert/feed/api/v1';
const SECRET = 'a-webhook-secret-of-some-length';
const MINUTE = 60_000;

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
let agent: ReturnType<typeof simulatedAgent>;
let agentId: number;
let robot: number;

beforeAll(async () => {
  // The database's now() stamps activity (stalls); the clock starts there and moves forward.
  clock = new FakeClock(new Date());
  t = await createTestApp({ clock });
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  const vm = await createVm(c.admin, 'Alerts VM');
  const created = await createAgent(c.admin, 'Alerts agent', vm);
  agentId = created.rota_nodes_id;
  agent = simulatedAgent(t.app, created.token);
  expect((await agent.hello()).status).toBe(200);
  robot = await createRobot(c.admin, 'Faturas');
});
afterAll(async () => {
  await t?.close();
});

const webhook = (name: string, extra: object = {}) => ({
  name,
  events: ['execution.application_error'],
  channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: SECRET },
  ...extra,
});

async function storedRow(id: number) {
  const [row] = await t.db.select().from(rotaAlerts).where(eq(rotaAlerts.rota_alerts_id, id));
  return row!;
}

describe('alert rules', () => {
  it('creates a webhook rule: the secret sealed at rest, never answered, language from the request', async () => {
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const res = await pt.post(
      `${ALERTS}/create`,
      webhook('Webhook rule', { rota_robots_ids: [robot] }),
    );
    expect(res.status).toBe(201);
    const alert = res.body.data;
    expect(alert).toMatchObject({
      name: 'Webhook rule',
      active: true,
      events: ['execution.application_error'],
      rota_robots_ids: [robot],
      channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret_set: true },
      language: 'pt',
    });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const row = await storedRow(alert.rota_alerts_id);
    expect(row.channel_secret).not.toContain(SECRET);
    expect(new SecretBox(t.secretKey).open(row.channel_secret!)).toBe(SECRET);
    expect(JSON.stringify(row.channel)).not.toContain(SECRET);

    const shown = await c.admin.post(`${ALERTS}/show`, { id: alert.rota_alerts_id });
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(SECRET);
    const listed = await c.admin.post(`${ALERTS}/index`, { channel_type: 'webhook' });
    expect(listed.body.data.map((a: { name: string }) => a.name)).toContain('Webhook rule');
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);

    const records = await auditOf(t.db, 'alert', alert.rota_alerts_id);
    expect(records).toHaveLength(1);
    expect(records[0]!.action).toBe('create');
    expect(JSON.stringify(records)).not.toContain(SECRET);
  });

  it('keeps the stored secret or URL while the type stays; requires it when the type changes', async () => {
    const created = await c.admin.post(`${ALERTS}/create`, webhook('Keeps secret'));
    const id = created.body.data.rota_alerts_id as number;
    const sealed = (await storedRow(id)).channel_secret;

    const moved = await c.admin.put(`${ALERTS}/update`, {
      id,
      channel: { type: 'webhook', url: 'http://127.0.0.1:10/other' },
    });
    expect(moved.status).toBe(204);
    expect((await storedRow(id)).channel_secret).toBe(sealed);
    expect((await c.admin.post(`${ALERTS}/show`, { id })).body.data.channel).toEqual({
      type: 'webhook',
      url: 'http://127.0.0.1:10/other',
      secret_set: true,
    });

    const noUrl = await c.admin.put(`${ALERTS}/update`, { id, channel: { type: 'slack' } });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.errors).toEqual([{ field: 'channel.url', message: expect.any(String) }]);

    const slackUrl = 'http://127.0.0.1:11/services/T000/B000/XXXX';
    const toSlack = await c.admin.put(`${ALERTS}/update`, {
      id,
      channel: { type: 'slack', url: slackUrl },
    });
    expect(toSlack.status).toBe(204);
    const slack = await c.admin.post(`${ALERTS}/show`, { id });
    expect(slack.body.data.channel).toEqual({ type: 'slack', url_set: true });
    expect(JSON.stringify(slack.body)).not.toContain(slackUrl);
    expect(new SecretBox(t.secretKey).open((await storedRow(id)).channel_secret!)).toBe(slackUrl);
    expect(JSON.stringify(await auditOf(t.db, 'alert', id))).not.toContain(slackUrl);

    // Renaming alone keeps the URL.
    expect((await c.admin.put(`${ALERTS}/update`, { id, name: 'Kept URL' })).status).toBe(204);
    expect((await c.admin.post(`${ALERTS}/show`, { id })).body.data.channel.url_set).toBe(true);

    const back = await c.admin.put(`${ALERTS}/update`, {
      id,
      channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook' },
    });
    expect(back.status).toBe(400);
    expect(back.body.errors).toEqual([{ field: 'channel.secret', message: 'Required secret' }]);
  });

  it('refuses bad input with field errors', async () => {
    const noSecret = await c.admin.post(`${ALERTS}/create`, {
      name: 'No secret',
      events: ['agent.lost'],
      channel: { type: 'webhook', url: 'http://127.0.0.1:9/hook' },
    });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.errors[0].field).toBe('channel.secret');

    const shortSecret = await c.admin.post(
      `${ALERTS}/create`,
      webhook('Short', {
        channel: { type: 'webhook', url: 'http://127.0.0.1:9/', secret: 'short' },
      }),
    );
    expect(shortSecret.status).toBe(400);

    const noEvents = await c.admin.post(`${ALERTS}/create`, webhook('No events', { events: [] }));
    expect(noEvents.status).toBe(400);
    expect(noEvents.body.errors[0].field).toBe('events');

    const badEmail = await c.admin.post(`${ALERTS}/create`, {
      name: 'Bad email',
      events: ['agent.lost'],
      channel: { type: 'email', to: ['not-an-email'] },
    });
    expect(badEmail.status).toBe(400);

    const otherRobot = await createRobot(c.other, 'Their robot');
    const foreign = await c.admin.post(
      `${ALERTS}/create`,
      webhook('Foreign robot', { rota_robots_ids: [otherRobot] }),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'rota_robots_ids', message: 'This robot does not exist' },
    ]);

    expect((await c.admin.post(`${ALERTS}/create`, webhook('Twice'))).status).toBe(201);
    const twice = await c.admin.post(`${ALERTS}/create`, webhook('TWICE'));
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([
      { field: 'name', message: 'An alert with this name already exists' },
    ]);
  });

  it('refuses internal and metadata addresses at save, unless ALERT_ALLOWED_NETWORKS lists them (loopback here)', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://169.254.10.1/',
      'http://[fe80::1]/hook',
      'http://[::ffff:169.254.169.254]/',
      'http://100.100.100.200/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://metadata/',
      'http://0xa9fea9fe/',
      'http://10.0.0.5/hook',
      'http://192.168.1.10/',
    ]) {
      const res = await c.admin.post(
        `${ALERTS}/create`,
        webhook(`Blocked ${url}`, { channel: { type: 'webhook', url, secret: SECRET } }),
      );
      expect(res.status, url).toBe(400);
      expect(res.body.errors, url).toEqual([
        {
          field: 'channel.url',
          message:
            'Destination not allowed: internal, reserved and cloud metadata addresses are refused unless the administrator allows the network (ALERT_ALLOWED_NETWORKS)',
        },
      ]);
    }
    const teams = await c.admin.post(`${ALERTS}/create`, {
      name: 'Blocked teams',
      events: ['agent.lost'],
      channel: { type: 'teams', url: 'http://169.254.169.254/' },
    });
    expect(teams.status).toBe(400);
    // This app allows loopback (test-app.ts); a name is judged when sent, not when saved.
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost:8080/',
      'https://hooks.example.com/',
    ]) {
      const ok = await c.admin.post(
        `${ALERTS}/create`,
        webhook(`Allowed ${url}`, { channel: { type: 'webhook', url, secret: SECRET } }),
      );
      expect(ok.status, url).toBe(201);
    }
  });

  it('keeps to the client and the permissions', async () => {
    const mine = await c.admin.post(`${ALERTS}/create`, webhook('Mine only'));
    const id = mine.body.data.rota_alerts_id as number;
    // The other client's administrator, holding USUARIOS.* there.
    const other = (await signedInUser(t, c.otherClientId, 'alerts-other')).as;
    expect((await other.post(`${ALERTS}/show`, { id })).status).toBe(404);
    expect((await other.put(`${ALERTS}/update`, { id, name: 'Taken' })).status).toBe(404);
    expect((await other.post(`${ALERTS}/delete`, { id })).status).toBe(404);
    expect((await other.post(`${ALERTS}/test`, { id })).status).toBe(404);
    expect((await other.post(`${DELIVERIES}/index`, { rota_alerts_id: id })).status).toBe(404);
    const theirs = await other.post(`${ALERTS}/index`, {});
    expect(theirs.body.data.map((a: { name: string }) => a.name)).not.toContain('Mine only');

    expect((await c.limited.post(`${ALERTS}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${ALERTS}/create`, webhook('Limited'))).status).toBe(403);
    expect((await c.limited.put(`${ALERTS}/update`, { id, name: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${ALERTS}/test`, { id })).status).toBe(403);
    expect((await c.limited.post(`${ALERTS}/delete`, { id })).status).toBe(403);

    const deleted = await c.admin.post(`${ALERTS}/delete`, { id });
    expect(deleted.status).toBe(202);
    expect((await c.admin.post(`${ALERTS}/show`, { id })).status).toBe(404);
    expect((await auditOf(t.db, 'alert', id)).map((r) => r.action)).toEqual(['delete', 'create']);
  });

  it('names its robots, only those the user may see', async () => {
    const zeta = await createRobot(c.admin, 'Zeta robot');
    const gone = await createRobot(c.admin, 'Gone robot');
    const created = await c.admin.post(
      `${ALERTS}/create`,
      webhook('Named robots', { rota_robots_ids: [zeta, gone, robot] }),
    );
    expect(created.status).toBe(201);
    const id = created.body.data.rota_alerts_id as number;
    expect(created.body.data.robots).toEqual([
      { rota_robots_id: zeta, name: 'Zeta robot' },
      { rota_robots_id: gone, name: 'Gone robot' },
      { rota_robots_id: robot, name: 'Faturas' },
    ]);

    expect((await c.admin.post('/api/rota/robot/api/v1/delete', { id: gone })).status).toBe(202);
    const listed = await c.admin.post(`${ALERTS}/index`, { search: 'Named robots' });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({
      rota_robots_ids: [zeta, gone, robot],
      robots: [
        { rota_robots_id: zeta, name: 'Zeta robot' },
        { rota_robots_id: robot, name: 'Faturas' },
      ],
    });

    // A member of a team that holds one of them: the others' names are not told.
    const member = await signedInUser(t, c.defaultClientId, 'alerts-team-member', {
      permissions: ['USUARIOS.LIST'],
    });
    await createTeam(c.admin, 'Alerts team', { robots: [zeta], users: [member.id] });
    const shown = await member.as.post(`${ALERTS}/show`, { id });
    expect(shown.status).toBe(200);
    expect(shown.body.data.robots).toEqual([{ rota_robots_id: zeta, name: 'Zeta robot' }]);
    const theirs = await member.as.post(`${ALERTS}/index`, { search: 'Named robots' });
    expect(theirs.body.data[0].robots).toEqual([{ rota_robots_id: zeta, name: 'Zeta robot' }]);
    expect(JSON.stringify(theirs.body)).not.toContain('Faturas');
  });
});

/** The events written since `after`, oldest first. */
async function eventsAfter(after: number) {
  return t.db
    .select()
    .from(rotaAlertEvents)
    .where(sql`${rotaAlertEvents.rota_alert_events_id} > ${after}`)
    .orderBy(asc(rotaAlertEvents.rota_alert_events_id));
}

async function lastEventId(): Promise<number> {
  const [row] = await t.db
    .select({ id: sql<number>`coalesce(max(${rotaAlertEvents.rota_alert_events_id}), 0)::int` })
    .from(rotaAlertEvents);
  return row!.id;
}

async function drainQueue() {
  await t.db.execute(
    sql`update rota_executions set status = 'cancelled', ended_at = now() where status in ('queued', 'processing')`,
  );
}

describe('event sources', () => {
  it('a run that ends in error writes its event once, with its data', async () => {
    await drainQueue();
    const before = await lastEventId();
    for (const status of ['application_error', 'business_error', 'success'] as const) {
      await runNow(c.admin, { id: robot });
      const run = await agent.claim();
      expect(run).not.toBeNull();
      const done = await agent.finish(
        run!.execution_id,
        run!.attempt,
        status,
        3,
        `ended ${status}`,
      );
      expect(done.status).toBe(200);
      // A repeated result counts once: no second event.
      await agent.finish(run!.execution_id, run!.attempt, status, 3, `ended ${status}`);
    }
    const events = await eventsAfter(before);
    expect(events.map((e) => e.type)).toEqual([
      'execution.application_error',
      'execution.business_error',
    ]);
    expect(events[0]).toMatchObject({
      rota_clients_id: c.defaultClientId,
      rota_robots_id: robot,
      fanned_out: false,
      data: expect.objectContaining({
        status: 'application_error',
        message: 'ended application_error',
        exit_code: 3,
        attempts: 1,
        rota_nodes_id: agentId,
      }),
    });
  });

  it('a run timed out writes execution.timeout', async () => {
    await drainQueue();
    const before = await lastEventId();
    const id = await runNow(c.admin, { id: robot });
    // The reaper's timeout is the same status change the trigger watches.
    await t.db.execute(
      sql`update rota_executions set status = 'timeout', ended_at = now() where rota_executions_id = ${id}`,
    );
    const events = await eventsAfter(before);
    expect(events.map((e) => [e.type, e.data.execution_id])).toEqual([['execution.timeout', id]]);
  });

  it('a run flagged stalled writes execution.stalled', async () => {
    await drainQueue();
    const quiet = await createRobot(c.admin, 'Quiet robot');
    expect(
      (await c.admin.put('/api/rota/robot/api/v1/update', { id: quiet, stall_minutes: 1 })).status,
    ).toBe(204);
    const before = await lastEventId();
    await runNow(c.admin, { id: quiet });
    const run = await agent.claim();
    expect(run).not.toBeNull();
    clock.advance(3 * MINUTE);
    await t.app.engine.tick();
    const events = await eventsAfter(before);
    expect(events.map((e) => [e.type, e.rota_robots_id, e.data.execution_id])).toContainEqual([
      'execution.stalled',
      quiet,
      run!.execution_id,
    ]);
    await drainQueue();
  });

  it('an agent gone quiet writes agent.lost, and agent.back when heard from again', async () => {
    const before = await lastEventId();
    await setLastSeen(t.db, agentId, 3600);
    await t.app.engine.tick();
    expect((await agent.heartbeat()).status).toBe(200);
    // Heartbeats are written once a second, together: the write brings it back online.
    expect((await t.app.services.presence.flush()).back).toEqual([
      { id: agentId, client: expect.any(Number) },
    ]);
    const events = (await eventsAfter(before)).filter((e) => e.type.startsWith('agent.'));
    expect(events.map((e) => [e.type, e.rota_robots_id, e.data.rota_nodes_id])).toEqual([
      ['agent.lost', null, agentId],
      ['agent.back', null, agentId],
    ]);
    expect(events[0]!.data.name).toBe('Alerts agent');
  });

  it('a task nearing and passing its deadline writes task.at_risk then task.breached', async () => {
    const slaRobot = await createRobot(c.admin, 'SLA robot');
    await c.admin.put('/api/rota/robot/api/v1/update', { id: slaRobot, task_risk_minutes: 10 });
    const start = clock.now().getTime();
    const task = await c.admin.post('/api/rota/task/api/v1/create', {
      rota_robots_id: slaRobot,
      label: 'Invoice 42',
      expiration_date: '2099-12-31',
      deadline: new Date(start + 30 * MINUTE).toISOString(),
    });
    expect(task.status).toBe(201);
    const before = await lastEventId();
    clock.set(new Date(start + 21 * MINUTE));
    await t.app.engine.tick();
    clock.set(new Date(start + 31 * MINUTE));
    await t.app.engine.tick();
    const events = (await eventsAfter(before)).filter((e) => e.type.startsWith('task.'));
    expect(events.map((e) => [e.type, e.rota_robots_id, e.data.label])).toEqual([
      ['task.at_risk', slaRobot, 'Invoice 42'],
      ['task.breached', slaRobot, 'Invoice 42'],
    ]);
  });

  it('a scheduling occurrence found late writes scheduling.missed, saying whether it ran', async () => {
    await drainQueue();
    const late = await createRobot(c.admin, 'Late robot');
    const made = async (name: string, missed_runs: string) => {
      const res = await c.admin.post('/api/rota/scheduling/api/v1/create', {
        name,
        rota_robots_id: late,
        interval_minutes: 60,
        timeout_minutes: 10,
        missed_runs,
      });
      expect(res.status).toBe(201);
      return res.body.data.rota_schedulings_id as number;
    };
    const once = await made('Late once', 'run_once');
    const skip = await made('Late skip', 'skip');
    const before = await lastEventId();
    // Due within the hour; found two hours later: more than the grace late.
    clock.advance(125 * MINUTE);
    await t.app.engine.tick();
    const events = (await eventsAfter(before)).filter((e) => e.type === 'scheduling.missed');
    const bySchedule = new Map(events.map((e) => [e.data.rota_schedulings_id, e]));
    expect(events).toHaveLength(2);
    expect(bySchedule.get(once)).toMatchObject({
      rota_robots_id: late,
      data: expect.objectContaining({ missed_runs: 'run_once', ran: true }),
    });
    expect(bySchedule.get(skip)!.data).toMatchObject({ missed_runs: 'skip', ran: false });
    expect(typeof bySchedule.get(once)!.data.due_at).toBe('string');
    // On time: no event.
    const next = await lastEventId();
    await t.app.engine.tick();
    expect((await eventsAfter(next)).filter((e) => e.type === 'scheduling.missed')).toEqual([]);
    await drainQueue();
  });
});

describe('bell', () => {
  it('lists the client\u2019s latest events with robot names, unread until marked seen', async () => {
    const feed = await c.admin.post(`${FEED}/index`, { limit: 5 });
    expect(feed.status).toBe(200);
    expect(feed.body.data).toHaveLength(5);
    expect(feed.body.unread).toBeGreaterThanOrEqual(5);
    const ids = feed.body.data.map((e: { rota_alert_events_id: number }) => e.rota_alert_events_id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(feed.body.data.every((e: { unread: boolean }) => e.unread)).toBe(true);
    const all = await c.admin.post(`${FEED}/index`, { limit: 100 });
    const failure = all.body.data.find(
      (e: { type: string }) => e.type === 'execution.application_error',
    );
    expect(failure).toMatchObject({ rota_robots_id: robot, robot_name: 'Faturas' });

    const newest = ids[0] as number;
    expect((await c.admin.post(`${FEED}/seen`, { up_to: ids[2] })).status).toBe(204);
    const some = await c.admin.post(`${FEED}/index`, { limit: 5 });
    expect(some.body.unread).toBe(2);
    expect(some.body.data.map((e: { unread: boolean }) => e.unread)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    // Never backwards; never past the newest event.
    await c.admin.post(`${FEED}/seen`, { up_to: newest });
    await c.admin.post(`${FEED}/seen`, { up_to: ids[4] });
    expect((await c.admin.post(`${FEED}/index`, {})).body.unread).toBe(0);
    await c.admin.post(`${FEED}/seen`, { up_to: 2_000_000_000 });
    await t.db.execute(
      sql`update rota_executions set status = 'timeout', ended_at = now() where rota_executions_id = (select max(rota_executions_id) from rota_executions where rota_clients_id = ${c.defaultClientId})`,
    );
    expect((await c.admin.post(`${FEED}/index`, {})).body.unread).toBe(1);

    // Another client sees none of them.
    const theirs = await c.other.post(`${FEED}/index`, { limit: 100 });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect(theirs.body.unread).toBe(0);
  });

  it('a member of teams sees their robots\u2019 events and agent events only', async () => {
    // Agent events are the agents list's to show (alerts-feed.test.ts: the bell by permission).
    const member = await signedInUser(t, c.defaultClientId, 'bell-member', {
      permissions: ['ROBOS.LIST', 'AGENTES.LIST'],
    });
    const seen = await createRobot(c.admin, 'Team robot');
    await createTeam(c.admin, 'Bell team', { robots: [seen], users: [member.id] });
    const feed = await member.as.post(`${FEED}/index`, { limit: 100 });
    expect(feed.status).toBe(200);
    const robots = new Set(
      feed.body.data.map((e: { rota_robots_id: number | null }) => e.rota_robots_id),
    );
    expect([...robots]).toEqual([null]);
    expect(feed.body.unread).toBe(feed.body.data.length);
    expect(feed.body.data.length).toBeGreaterThanOrEqual(2);
  });

  it('needs a session', async () => {
    expect((await client(t.app).post(`${FEED}/index`, {})).status).toBe(401);
  });
});
