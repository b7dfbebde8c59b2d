import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaAlertDeliveries, rotaAlertEvents } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { createMailer } from '../src/lib/mailer.js';
import { nextAttemptAt } from '../src/modules/alerts/alert-worker.js';
import { postJson, type DnsLookup } from '../src/modules/alerts/channels/outbound-http.js';
import { lockDueDeliveries } from '../src/modules/alerts/worker-repository.js';
import { OutboundPolicy } from '../src/lib/outbound-address.js';
import { CHANNELS, messagesOf } from '../src/modules/dispatch/live-events.js';
import { openTestDatabase } from './helpers/database.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { startHttpReceiver, startSmtpServer, type HttpReceiver } from './helpers/receivers.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import {
  ADMIN,
  client,
  createTestApp,
  signIn,
  TEST_ALLOWED_NETWORKS,
  type TestApp,
} from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const ALERTS = '/api/rota/alert/api/v1';
const DELIVERIES = '/api/rota/alert/delivery/api/v1';
const SECRET = 'receiver-shared-secret-1234';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const LOOPBACK_ALLOWED = new OutboundPolicy(TEST_ALLOWED_NETWORKS);

/** Resolves `evil.test` to the cloud metadata address: what a rebinding name would do. */
const rebindingLookup = ((
  hostname: string,
  options: object,
  callback: (...a: unknown[]) => void,
) => {
  if (hostname === 'evil.test') {
    return (options as { all?: boolean }).all
      ? callback(null, [{ address: '169.254.169.254', family: 4 }])
      : callback(null, '169.254.169.254', 4);
  }
  return dnsLookup(hostname, options as never, callback as never);
}) as unknown as DnsLookup;

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let agent: ReturnType<typeof simulatedAgent>;
const receivers: HttpReceiver[] = [];

beforeAll(async () => {
  clock = new FakeClock(new Date());
  smtp = await startSmtpServer();
  t = await createTestApp({
    clock,
    mailer: createMailer({
      smtpUrl: smtp.url,
      from: 'Rota <rota@test>',
      logger: pino({ level: 'silent' }),
    }),
    alerts: { lookup: rebindingLookup },
  });
  c = await setUpTenants(t);
  const vm = await createVm(c.admin, 'Delivery VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Delivery agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  for (const r of receivers) await r.close();
});

async function receiver(statuses: number[] = [200]) {
  const r = await startHttpReceiver(statuses);
  receivers.push(r);
  return r;
}

/** A run of `robot` claimed and ended as an application error; answers its id. */
async function failRun(robot: number, message = 'Invoice portal down') {
  await runNow(c.admin, { id: robot });
  const run = await agent.claim();
  expect(run?.robot.rota_robots_id).toBe(robot);
  const done = await agent.finish(run!.execution_id, run!.attempt, 'application_error', 2, message);
  expect(done.status).toBe(200);
  return run!.execution_id;
}

async function createAlert(body: object) {
  const res = await c.admin.post(`${ALERTS}/create`, {
    events: ['execution.application_error'],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body.data.rota_alerts_id as number;
}

async function deliveriesOf(id: number) {
  const res = await c.admin.post(`${DELIVERIES}/index`, { rota_alerts_id: id });
  expect(res.status).toBe(200);
  return res.body.data as {
    rota_alert_deliveries_id: number;
    delivery_uid: string;
    event_type: string;
    robot_name: string | null;
    count: number;
    status: string;
    attempts: number;
    response_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
  }[];
}

const tick = () => t.app.services.alerts.worker.tick();

describe('email', () => {
  it('sends a mail in the rule\u2019s language through a real SMTP server', async () => {
    const robot = await createRobot(c.admin, 'Faturas');
    const id = await createAlert({
      name: 'Mail Faturas',
      rota_robots_ids: [robot],
      language: 'pt',
      channel: { type: 'email', to: ['ana@example.com', 'bia@example.com'] },
    });
    const execution = await failRun(robot, 'Portal de faturas fora do ar');
    await tick();
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.to).toContain('ana@example.com');
    expect(mail.to).toContain('bia@example.com');
    expect(mail.subject).toBe('[Rota] Robô Faturas: erro de aplicação');
    expect(mail.text).toContain('Mensagem: Portal de faturas fora do ar');
    expect(mail.text).toContain(`Abrir execução: http://rota.test/activity/${execution}`);
    expect(mail.text).toMatch(/Quando: \d{4}-\d{2}-\d{2}T/);
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({
      event_type: 'execution.application_error',
      robot_name: 'Faturas',
      status: 'delivered',
      attempts: 1,
      count: 1,
    });
  });
});

describe('webhook', () => {
  it('retries after 10 s and 30 s until the receiver answers 200: three attempts of one signed event', async () => {
    const hook = await receiver([500, 500, 200]);
    const robot = await createRobot(c.admin, 'Webhook robot');
    const id = await createAlert({
      name: 'Webhook retries',
      rota_robots_ids: [robot],
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    const execution = await failRun(robot);
    await tick();
    expect(hook.received).toHaveLength(1);
    let [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, response_code: 500 });
    expect(new Date(delivery!.next_attempt_at!).getTime()).toBe(
      clock.now().getTime() + 10 * SECOND,
    );

    await tick(); // not due yet
    expect(hook.received).toHaveLength(1);
    clock.advance(10 * SECOND);
    await tick();
    expect(hook.received).toHaveLength(2);
    [delivery] = await deliveriesOf(id);
    expect(new Date(delivery!.next_attempt_at!).getTime()).toBe(
      clock.now().getTime() + 30 * SECOND,
    );
    clock.advance(30 * SECOND);
    await tick();
    expect(hook.received).toHaveLength(3);

    const deliveries = await deliveriesOf(id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      response_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    const bodies = hook.received.map((r) => r.json);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    for (const request of hook.received) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('Rota');
      expect(request.headers['x-rota-event']).toBe('execution.application_error');
      expect(request.headers['x-rota-delivery']).toBe(deliveries[0]!.delivery_uid);
      const expected = `sha256=${createHmac('sha256', SECRET).update(request.raw).digest('hex')}`;
      expect(request.headers['x-rota-signature']).toBe(expected);
    }
    expect(bodies[0]).toMatchObject({
      type: 'execution.application_error',
      rota_clients_id: c.defaultClientId,
      occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: {
        execution_id: execution,
        status: 'application_error',
        message: 'Invoice portal down',
        count: 1,
        url: `http://rota.test/activity/${execution}`,
        robot_name: 'Webhook robot',
      },
    });
    const [event] = await t.db
      .select({ uid: rotaAlertEvents.event_uid })
      .from(rotaAlertEvents)
      .where(sql`${rotaAlertEvents.data}->>'execution_id' = ${String(execution)}`);
    expect(bodies[0].id).toBe(event!.uid);
    // Each attempt is counted by outcome and channel for /metrics.
    const { body: scraped } = await t.app.metrics.scrape();
    expect(scraped).toMatch(
      /rota_alert_deliveries_total\{outcome="retry",channel="webhook"\} [2-9]/,
    );
    expect(scraped).toMatch(
      /rota_alert_deliveries_total\{outcome="delivered",channel="webhook"\} \d/,
    );
  });

  it('groups repeats within 10 minutes: one message, then one folded with the count', async () => {
    const hook = await receiver([200]);
    const robot = await createRobot(c.admin, 'Flapping robot');
    const id = await createAlert({
      name: 'Grouped',
      rota_robots_ids: [robot],
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    const live: unknown[] = [];
    const stop = t.events.subscribe(CHANNELS.live, (payload) => live.push(...messagesOf(payload)));
    const start = clock.now().getTime();
    for (let i = 0; i < 5; i += 1) {
      clock.set(new Date(start + i * MINUTE));
      await failRun(robot);
      await tick();
    }
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.json.data.count).toBe(1);
    clock.set(new Date(start + 10 * MINUTE));
    await tick();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]!.json.data.count).toBe(4);
    const deliveries = await deliveriesOf(id);
    expect(deliveries.map((d) => [d.count, d.status])).toEqual([
      [4, 'delivered'],
      [1, 'delivered'],
    ]);
    // Repeats after the window start a new group, due at once.
    clock.set(new Date(start + 25 * MINUTE));
    await failRun(robot);
    await tick();
    expect(hook.received).toHaveLength(3);
    expect(hook.received[2]!.json.data.count).toBe(1);

    // The bell heard of each event, live.
    await new Promise((r) => setImmediate(r));
    await until(() => live.length >= 6);
    stop();
    expect(live).toContainEqual({
      c: c.defaultClientId,
      e: expect.objectContaining({ type: 'alert', rota_robots_id: robot }),
    });
  });

  it('refuses a name that resolves to the metadata address at send time', async () => {
    const robot = await createRobot(c.admin, 'Rebinding robot');
    const id = await createAlert({
      name: 'Rebinding',
      rota_robots_ids: [robot],
      channel: { type: 'webhook', url: 'http://evil.test/hook', secret: SECRET },
    });
    await failRun(robot);
    await tick();
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: null,
      last_error: 'destination_not_allowed',
    });
    // The guard itself, with the system resolver: a literal is refused before any connection.
    const direct = await postJson('http://169.254.169.254/latest/meta-data', '{}', {});
    expect(direct).toEqual({ ok: false, status: null, error: 'destination_not_allowed' });
  });

  it('sends again after the lock when an instance died mid-send (at least once)', async () => {
    const hook = await receiver([200]);
    const robot = await createRobot(c.admin, 'Crash robot');
    const id = await createAlert({
      name: 'Crash',
      rota_robots_ids: [robot],
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    await failRun(robot);
    await t.app.services.alerts.worker.fanOut();
    // An instance locks it, then dies before sending or recording anything.
    const locked = await lockDueDeliveries(t.db, clock.now(), 20);
    expect(locked.map((d) => d.rule)).toContain(id);
    await tick();
    expect(hook.received).toHaveLength(0);
    clock.advance(61 * SECOND);
    await tick();
    expect(hook.received).toHaveLength(1);
    expect((await deliveriesOf(id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('follows no redirect and reads a 3xx as a failure', async () => {
    const hook = await receiver([302]);
    const result = await postJson(hook.url, '{}', {}, { policy: LOOPBACK_ALLOWED });
    expect(result).toEqual({ ok: false, status: 302, error: 'HTTP 302' });
    expect(hook.received).toHaveLength(1);
  });
});

describe('chat channels', () => {
  it('Slack gets text and blocks with a link; Teams an Adaptive Card with an open action', async () => {
    const slack = await receiver([200]);
    const teams = await receiver([200]);
    const robot = await createRobot(c.admin, 'Chat robot');
    await createAlert({
      name: 'Slack',
      rota_robots_ids: [robot],
      channel: { type: 'slack', url: slack.url },
    });
    await createAlert({
      name: 'Teams',
      rota_robots_ids: [robot],
      channel: { type: 'teams', url: teams.url },
    });
    const execution = await failRun(robot);
    await tick();
    const link = `http://rota.test/activity/${execution}`;
    expect(slack.received).toHaveLength(1);
    const s = slack.received[0]!.json;
    expect(s.text).toContain(`<${link}|Open execution>`);
    expect(s.text).toContain('Robot Chat robot: application error');
    expect(JSON.stringify(s.blocks)).toContain(`<${link}|Open execution>`);
    expect(teams.received).toHaveLength(1);
    const m = teams.received[0]!.json;
    expect(m.type).toBe('message');
    expect(m.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(m.attachments[0].content).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
      actions: [{ type: 'Action.OpenUrl', title: 'Open execution', url: link }],
    });
    expect(m.attachments[0].content.body[0].text).toBe('Robot Chat robot: application error');
  });
});

describe('send test', () => {
  it('attempts a test delivery at once and answers it; a failing one is not retried', async () => {
    const hook = await receiver([200]);
    const id = await createAlert({
      name: 'Test button',
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    const res = await c.admin.post(`${ALERTS}/test`, { id });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Test sent');
    expect(res.body.data).toMatchObject({
      event_type: 'alert.test',
      status: 'delivered',
      attempts: 1,
      response_code: 200,
      count: 1,
    });
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.headers['x-rota-event']).toBe('alert.test');
    expect(hook.received[0]!.json).toMatchObject({ type: 'alert.test', data: { count: 1 } });

    hook.answer([503]);
    const failing = await c.admin.post(`${ALERTS}/test`, { id });
    expect(failing.body.data).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_code: 503,
      next_attempt_at: null,
    });
    clock.advance(10 * SECOND);
    await tick();
    expect(hook.received).toHaveLength(2);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(['failed', 'delivered']);
  });
});

describe('retry schedule', () => {
  it('10 s, 30 s, 2 min, 10 min, then hourly until 24 h after the first attempt', () => {
    const first = new Date('2030-01-01T00:00:00Z');
    const after = (attempts: number, now: Date) => {
      const next = nextAttemptAt(attempts, first, now);
      return next ? (next.getTime() - now.getTime()) / SECOND : null;
    };
    expect([1, 2, 3, 4, 5, 6].map((n) => after(n, first))).toEqual([10, 30, 120, 600, 3600, 3600]);
    expect(after(20, new Date(first.getTime() + 22 * 60 * MINUTE))).toBe(3600);
    expect(after(21, new Date(first.getTime() + 23 * 60 * MINUTE + 1))).toBeNull();
  });
});

describe('retention', () => {
  it('prunes events and deliveries older than 30 days', async () => {
    const old = new Date(clock.now().getTime() - 31 * 24 * 60 * MINUTE);
    await t.db.execute(
      sql`update rota_alert_events set occurred_at = ${old.toISOString()}::timestamptz`,
    );
    await t.db.execute(
      sql`update rota_alert_deliveries set created_at = ${old.toISOString()}::timestamptz where status <> 'pending'`,
    );
    const report = await t.app.retention.prune();
    expect(report.alert_deliveries).toBeGreaterThan(0);
    expect(report.alert_events).toBeGreaterThan(0);
    const [left] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(rotaAlertDeliveries)
      .where(eq(rotaAlertDeliveries.status, 'delivered'));
    expect(left!.n).toBe(0);
  });
});

async function until(probe: () => boolean | Promise<boolean>) {
  for (let i = 0; i < 200 && !(await probe()); i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe('restart', () => {
  it('an event whose receiver was down while the server restarted still arrives', async () => {
    const database = await openTestDatabase();
    const key = Buffer.alloc(32, 7);
    const restartClock = new FakeClock(new Date());
    // A port that answers nothing: the receiver is down.
    const probe = await startHttpReceiver();
    const port = probe.port;
    await probe.close();

    const first = await createTestApp({ database, secretKey: key, clock: restartClock });
    const admin = client(first.app, {
      token: await signIn(first.app, ADMIN.access, ADMIN.password),
    });
    const vm = await createVm(admin, 'Restart VM');
    const firstAgent = simulatedAgent(
      first.app,
      (await createAgent(admin, 'Restart agent', vm)).token,
    );
    await firstAgent.hello();
    const robot = await createRobot(admin, 'Restart robot');
    const created = await admin.post(`${ALERTS}/create`, {
      name: 'Restart',
      events: ['execution.application_error'],
      channel: { type: 'webhook', url: `http://127.0.0.1:${port}/hook`, secret: SECRET },
    });
    expect(created.status).toBe(201);
    await runNow(admin, { id: robot });
    const run = await firstAgent.claim();
    await firstAgent.finish(run!.execution_id, run!.attempt, 'application_error', 1, 'down');
    await first.app.services.alerts.worker.tick();
    const failed = await admin.post(`${DELIVERIES}/index`, {
      rota_alerts_id: created.body.data.rota_alerts_id,
    });
    expect(failed.body.data[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: null,
    });
    await first.app.close();

    const back = await startHttpReceiver([200], port);
    receivers.push(back);
    const second = await createTestApp({ database, secretKey: key, clock: restartClock });
    try {
      restartClock.advance(10 * SECOND);
      await second.app.services.alerts.worker.tick();
      expect(back.received).toHaveLength(1);
      expect(back.received[0]!.json.data.execution_id).toBe(run!.execution_id);
      const expected = `sha256=${createHmac('sha256', SECRET).update(back.received[0]!.raw).digest('hex')}`;
      expect(back.received[0]!.headers['x-rota-signature']).toBe(expected);
      const admin2 = client(second.app, {
        token: await signIn(second.app, ADMIN.access, ADMIN.password),
      });
      const log = await admin2.post(`${DELIVERIES}/index`, {
        rota_alerts_id: created.body.data.rota_alerts_id,
      });
      expect(log.body.data[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await second.close();
    }
  });
});
