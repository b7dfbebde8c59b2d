import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaLogStreamOutbox } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import {
  freePort,
  makeTestCa,
  RSYSLOG_GNUTLS,
  RSYSLOGD,
  startRsyslog,
  type Rsyslog,
  type TestCa,
} from './helpers/rsyslog.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

const STREAMS = '/api/rota/log-stream/api/v1';

if (!RSYSLOGD) {
  console.warn(
    'log-streams-syslog: rsyslogd is absent (apt-get install rsyslog rsyslog-gnutls): skipped',
  );
}

/** `<PRI>1 TIMESTAMP HOST APP PROCID MSGID - JSON`, as rsyslog received it. */
function parse(line: string) {
  const m = /^<(\d+)>1 (\S+) (\S+) (\S+) (\S+) (\S+) - (.*)$/.exec(line);
  if (!m) return null;
  return {
    pri: Number(m[1]),
    app: m[4],
    msgid: m[6],
    body: JSON.parse(m[7]!) as Record<string, unknown>,
  };
}

describe.skipIf(!RSYSLOGD)('log streams to rsyslog', () => {
  let t: TestApp;
  let c: Tenants;
  let clock: FakeClock;
  const stops: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    clock = new FakeClock(new Date());
    t = await createTestApp({ clock });
    c = await setUpTenants(t);
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await t?.close();
  });

  async function rsyslog(port: number, tls?: TestCa): Promise<Rsyslog> {
    const r = await startRsyslog(port, tls);
    stops.push(() => r.stop());
    return r;
  }

  async function stream(body: object): Promise<number> {
    const res = await c.admin.post(`${STREAMS}/create`, {
      name: `Stream ${Math.random()}`,
      events: ['audit', 'execution'],
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.rota_log_streams_id as number;
  }

  async function deactivate(id: number) {
    expect((await c.admin.put(`${STREAMS}/update`, { id, active: false })).status).toBe(204);
  }

  it('sends an audit record over TCP, octet-counted, as RFC 5424 with a JSON body', async () => {
    const receiver = await rsyslog(await freePort());
    const id = await stream({ transport: 'tcp', host: '127.0.0.1', port: receiver.port });
    await createVm(c.admin, 'Audited VM');
    await t.app.services.logStreams.worker.tick();
    const line = await receiver.waitFor((l) => l.includes('"Audited VM"'));
    const message = parse(line)!;
    expect(message.pri).toBe(13 * 8 + 5);
    expect(message.app).toBe('rota');
    expect(message.msgid).toBe('audit');
    expect(message.body).toMatchObject({
      type: 'audit',
      action: 'create',
      entity: 'vm',
      rota_clients_id: c.defaultClientId,
      after: expect.objectContaining({ name: 'Audited VM' }),
    });
    expect(typeof message.body.id).toBe('string');
    // Delivered messages leave the outbox.
    const left = await t.db
      .select()
      .from(rotaLogStreamOutbox)
      .where(eq(rotaLogStreamOutbox.rota_log_streams_id, id));
    expect(left).toEqual([]);
    await deactivate(id);
  });

  it('sends a run starting and finishing with its status', async () => {
    const receiver = await rsyslog(await freePort());
    const id = await stream({
      transport: 'tcp',
      host: '127.0.0.1',
      port: receiver.port,
      events: ['execution'],
    });
    const vm = await createVm(c.admin, 'Syslog VM');
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Syslog agent', vm)).token);
    expect((await agent.hello()).status).toBe(200);
    const robot = await createRobot(c.admin, 'Syslog robot');
    await runNow(c.admin, { id: robot });
    const run = await agent.claim();
    expect(run).not.toBeNull();
    expect(
      (await agent.finish(run!.execution_id, run!.attempt, 'application_error', 2)).status,
    ).toBe(200);
    await t.app.services.logStreams.worker.tick();
    const finished = parse(await receiver.waitFor((l) => l.includes('execution.finished')))!;
    expect(finished.pri).toBe(13 * 8 + 4);
    expect(finished.body).toMatchObject({
      type: 'execution.finished',
      execution_id: run!.execution_id,
      status: 'application_error',
      exit_code: 2,
      rota_robots_id: robot,
    });
    const started = (await receiver.lines())
      .map(parse)
      .find((m) => m?.msgid === 'execution.started');
    expect(started?.body).toMatchObject({ execution_id: run!.execution_id, status: 'processing' });
    // The stream carries runs only: the robot's creation (an audit record) stayed out.
    expect((await receiver.lines()).some((l) => l.includes('"audit"'))).toBe(false);
    await deactivate(id);
  });

  it('retries while the receiver is down and delivers once it is up', async () => {
    const port = await freePort();
    const idle = await stream({ transport: 'tcp', host: '127.0.0.1', port, active: false });
    const id = await stream({ transport: 'tcp', host: '127.0.0.1', port, events: ['audit'] });
    await createVm(c.admin, 'While down');
    await t.app.services.logStreams.worker.tick();
    // The stream's own creation is an audit record of the client too: two messages wait.
    const waiting = await c.admin.post(`${STREAMS}/show`, { id });
    expect(waiting.body.data).toMatchObject({ pending: 2, failed: 0 });
    // Each stream counts its own messages only.
    expect((await c.admin.post(`${STREAMS}/show`, { id: idle })).body.data.pending).toBe(0);
    const rows = await t.db
      .select()
      .from(rotaLogStreamOutbox)
      .where(eq(rotaLogStreamOutbox.rota_log_streams_id, id));
    expect(rows.map((r) => [r.attempts, r.status, r.last_error])).toEqual([
      [1, 'pending', 'not_delivered'],
      [1, 'pending', 'not_delivered'],
    ]);

    const receiver = await rsyslog(port);
    // Not due yet: the next attempt waits 10 seconds on the app's clock.
    await t.app.services.logStreams.worker.tick();
    expect((await c.admin.post(`${STREAMS}/show`, { id })).body.data.pending).toBe(2);
    clock.advance(11_000);
    await t.app.services.logStreams.worker.tick();
    await receiver.waitFor((l) => l.includes('"While down"'));
    expect((await c.admin.post(`${STREAMS}/show`, { id })).body.data.pending).toBe(0);
    await deactivate(id);
  });

  it.skipIf(!RSYSLOG_GNUTLS)(
    'sends over TLS checked against the stream\u2019s CA certificate',
    async () => {
      const ca = await makeTestCa();
      const receiver = await rsyslog(await freePort(), ca);
      const id = await stream({
        transport: 'tls',
        host: '127.0.0.1',
        port: receiver.port,
        events: ['audit'],
        ca_certificate: ca.caPem,
      });
      const test = await c.admin.post(`${STREAMS}/test`, { id });
      expect(test.status).toBe(200);
      expect(test.body.data).toEqual({ delivered: true, last_error: null });
      const line = await receiver.waitFor((l) => l.includes('"type":"test"'));
      expect(parse(line)?.body).toMatchObject({ rota_log_streams_id: id });

      // Without the CA the receiver's certificate is not trusted: not delivered.
      const untrusted = await stream({
        transport: 'tls',
        host: '127.0.0.1',
        port: receiver.port,
        events: ['audit'],
      });
      const refused = await c.admin.post(`${STREAMS}/test`, { id: untrusted });
      expect(refused.body.data).toEqual({ delivered: false, last_error: 'not_delivered' });
      await deactivate(id);
      await deactivate(untrusted);
    },
  );
});
