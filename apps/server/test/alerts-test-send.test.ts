import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaAlertDeliveries } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/receivers.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

const ALERTS = '/api/rota/alert/api/v1';
const DELIVERIES = '/api/rota/alert/delivery/api/v1';
const SECRET = 'receiver-shared-secret-1234';
const HOUR = 3600 * 1000;

let t: TestApp;
let c: Tenants;
let clock: FakeClock;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({ clock });
  c = await setUpTenants(t);
});
afterAll(async () => {
  for (const close of closers) await close();
  await t?.close();
});

async function receiver(statuses: number[] = [200]): Promise<HttpReceiver> {
  const r = await startHttpReceiver(statuses);
  closers.push(() => r.close());
  return r;
}

/** A port nothing listens on: bound once, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A listener that accepts and hangs up at once (ECONNRESET to the sender). */
async function resettingPort(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.resetAndDestroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(resolve)));
  return { port: (server.address() as net.AddressInfo).port, connections: () => connections };
}

/** A fresh user of the default client who may send tests (each has 5 a minute). */
async function tester(clientId = c.defaultClientId) {
  const profile = await createProfile(t.db, clientId, `Testers ${Math.random()}`, [
    'USUARIOS.LIST',
    'USUARIOS.CREATE',
    'USUARIOS.UPDATE',
  ]);
  const access = `tester${Math.random().toString(36).slice(2, 8)}`;
  await createUser(t.db, {
    access,
    password: 'tester-password-1',
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  return client(t.app, { token: await signIn(t.app, access, 'tester-password-1') });
}

async function webhookRule(url: string) {
  const res = await c.admin.post(`${ALERTS}/create`, {
    name: `Rule ${Math.random()}`,
    events: ['execution.application_error'],
    channel: { type: 'webhook', url, secret: SECRET },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.rota_alerts_id as number;
}

describe('send test', () => {
  it('is tried once and never retried: delivered, or failed with the receiver\u2019s status', async () => {
    const hook = await receiver([200]);
    const id = await webhookRule(hook.url);
    const user = await tester();
    const ok = await user.post(`${ALERTS}/test`, { id });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      event_type: 'alert.test',
      status: 'delivered',
      attempts: 1,
      response_code: 200,
      last_error: null,
    });

    hook.answer([503]);
    const failing = await user.post(`${ALERTS}/test`, { id });
    expect(failing.status).toBe(200);
    expect(failing.body.data).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_code: 503,
      last_error: 'not_delivered',
      next_attempt_at: null,
    });
    expect(hook.received).toHaveLength(2);
    // A day later the worker has sent nothing more.
    clock.advance(25 * HOUR);
    await t.app.services.alerts.worker.tick();
    expect(hook.received).toHaveLength(2);
    const log = await c.admin.post(`${DELIVERIES}/index`, { rota_alerts_id: id });
    expect(log.body.data.map((d: { status: string }) => d.status)).toEqual(['failed', 'delivered']);
  });

  it('tells a refused port, a reset and a 500 apart only by the status the receiver answered', async () => {
    const user = await tester();
    const closed = await webhookRule(`http://127.0.0.1:${await closedPort()}/`);
    const reset = await resettingPort();
    const resetting = await webhookRule(`http://127.0.0.1:${reset.port}/`);
    const broken = await receiver([500]);
    const erroring = await webhookRule(broken.url);

    const answers = [];
    for (const id of [closed, resetting, erroring]) {
      const res = await user.post(`${ALERTS}/test`, { id });
      expect(res.status).toBe(200);
      answers.push(res.body);
    }
    expect(reset.connections()).toBe(1);
    expect(broken.received).toHaveLength(1);
    const [refusedAnswer, resetAnswer, errorAnswer] = answers;
    for (const answer of [refusedAnswer, resetAnswer]) {
      expect(answer.data).toMatchObject({
        status: 'failed',
        response_code: null,
        last_error: 'not_delivered',
      });
    }
    expect(errorAnswer.data).toMatchObject({
      status: 'failed',
      response_code: 500,
      last_error: 'not_delivered',
    });
    // Nothing of the transport reaches the answer or the delivery log.
    const logs = await Promise.all(
      [closed, resetting, erroring].map((id) =>
        c.admin.post(`${DELIVERIES}/index`, { rota_alerts_id: id }),
      ),
    );
    const everything = JSON.stringify([answers, logs.map((l) => l.body)]);
    for (const leak of ['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'timeout', '127.0.0.1']) {
      expect(everything).not.toContain(leak);
    }
  });

  it('lets a user send 5 a minute and a client 20, then answers 429', async () => {
    const hook = await receiver([200]);
    const id = await webhookRule(hook.url);
    const user = await tester();
    for (let i = 0; i < 5; i++)
      expect((await user.post(`${ALERTS}/test`, { id })).status).toBe(200);
    const limited = await user.post(`${ALERTS}/test`, { id });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    );
    expect(limited.headers['retry-after']).toBe('60');
    expect(hook.received).toHaveLength(5);

    // The client's own limit: other users of the same client, together, reach 20.
    const before = hook.received.length;
    let answered = 0;
    let refused = 0;
    for (let round = 0; round < 5; round++) {
      const other = await tester();
      for (let i = 0; i < 5; i++) {
        const res = await other.post(`${ALERTS}/test`, { id });
        if (res.status === 200) answered++;
        else if (res.status === 429) refused++;
      }
    }
    // Earlier tests of this file and the first user's 5 count against the client's 20.
    expect(answered).toBeLessThan(20);
    expect(refused).toBeGreaterThan(0);
    expect(hook.received.length - before).toBe(answered);
    // Another client is not held back.
    const other = await tester(c.otherClientId);
    const foreign = await other.post(`${ALERTS}/create`, {
      name: 'Other client rule',
      events: ['execution.application_error'],
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    expect(foreign.status).toBe(201);
    const sent = await other.post(`${ALERTS}/test`, { id: foreign.body.data.rota_alerts_id });
    expect(sent.status).toBe(200);
  });
});

describe('delivery log', () => {
  it('answers a failure written before the log kept codes as "not delivered"', async () => {
    // In the other client: the throttle test above spent the default client's minute.
    const hook = await receiver([503]);
    const user = await tester(c.otherClientId);
    const rule = await user.post(`${ALERTS}/create`, {
      name: 'Older log',
      events: ['execution.application_error'],
      channel: { type: 'webhook', url: hook.url, secret: SECRET },
    });
    const id = rule.body.data.rota_alerts_id as number;
    const sent = await user.post(`${ALERTS}/test`, { id });
    expect(sent.body.data.last_error).toBe('not_delivered');
    // What an older server stored: the transport's own words.
    await t.db
      .update(rotaAlertDeliveries)
      .set({ last_error: 'connect ECONNREFUSED 127.0.0.1:9' })
      .where(
        eq(rotaAlertDeliveries.rota_alert_deliveries_id, sent.body.data.rota_alert_deliveries_id),
      );
    const log = await user.post(`${DELIVERIES}/index`, { rota_alerts_id: id });
    expect(log.body.data[0]).toMatchObject({ last_error: 'not_delivered', response_code: 503 });
    expect(JSON.stringify(log.body)).not.toContain('ECONNREFUSED');
  });
});
