import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/receivers.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';

const ALERTS = '/api/rota/alert/api/v1';
const SECRET = 'receiver-shared-secret-1234';
const NOT_ALLOWED_EN =
  'Destination not allowed: internal, reserved and cloud metadata addresses are refused unless the administrator allows the network (ALERT_ALLOWED_NETWORKS)';

/** Literal hosts no rule may name without the allow-list, by what they are. */
const INTERNAL = {
  loopback: 'http://127.0.0.1:8080/',
  loopbackOther: 'http://127.8.9.10/',
  loopbackV6: 'http://[::1]:8080/',
  private10: 'http://10.0.0.5/',
  private172: 'http://172.16.0.1/',
  private192: 'http://192.168.1.1/',
  uniqueLocal: 'http://[fc00::1]/',
  uniqueLocalFd: 'http://[fd12:3456::1]/',
  cgnat: 'http://100.64.0.1/',
  linkLocal: 'http://169.254.1.10/',
  linkLocalV6: 'http://[fe80::1]/',
  nat64Metadata: 'http://[64:ff9b::a9fe:a9fe]/',
  nat64Private: 'http://[64:ff9b::a00:5]/',
  nat64Local: 'http://[64:ff9b:1::a00:5]/',
  siitMetadata: 'http://[::ffff:0:a9fe:a9fe]/',
  siitLoopback: 'http://[::ffff:0:7f00:1]/',
  mappedLoopback: 'http://[::ffff:127.0.0.1]/',
  compatibleLoopback: 'http://[::127.0.0.1]/',
  sixToFourLoopback: 'http://[2002:7f00:1::1]/',
  unspecified: 'http://0.0.0.0:8080/',
  unspecifiedV6: 'http://[::]/',
  broadcast: 'http://255.255.255.255/',
  multicast: 'http://224.0.0.1/',
  multicastV6: 'http://[ff02::1]/',
  documentation: 'http://192.0.2.10/',
  documentationV6: 'http://[2001:db8::1]/',
  benchmarking: 'http://198.18.0.1/',
  reserved: 'http://240.0.0.1/',
  // Written as one number or in hex, the URL parser makes them 127.0.0.1 before the check.
  decimalLoopback: 'http://2130706433/',
  hexLoopback: 'http://0x7f.0.0.1/',
};

/** Refused even with every range above allowed. */
const METADATA = {
  aws: 'http://169.254.169.254/latest/meta-data',
  alibaba: 'http://100.100.100.200/',
  awsV6: 'http://[fd00:ec2::254]/',
  mapped: 'http://[::ffff:169.254.169.254]/',
  nat64: 'http://[64:ff9b::a9fe:a9fe]/',
  siit: 'http://[::ffff:0:a9fe:a9fe]/',
  google: 'http://metadata.google.internal/computeMetadata/v1/',
  googleDot: 'http://METADATA.GOOGLE.INTERNAL./',
};

const EVERY_RANGE =
  '127.0.0.0/8, ::1/128, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7, 100.64.0.0/10, 169.254.0.0/16, fe80::/10, 64:ff9b::/96, 64:ff9b:1::/48, 0.0.0.0/0';

const receivers: HttpReceiver[] = [];
async function receiver() {
  const r = await startHttpReceiver([200]);
  receivers.push(r);
  return r;
}
afterAll(async () => {
  for (const r of receivers) await r.close();
});

async function create(c: Tenants, url: string, type: 'webhook' | 'slack' = 'webhook') {
  return c.admin.post(`${ALERTS}/create`, {
    name: `Rule ${Math.random()}`,
    events: ['execution.application_error'],
    channel: type === 'webhook' ? { type, url, secret: SECRET } : { type, url },
  });
}

describe('without ALERT_ALLOWED_NETWORKS', () => {
  let t: TestApp;
  let c: Tenants;
  beforeAll(async () => {
    t = await createTestApp({ allowedNetworks: null });
    c = await setUpTenants(t);
  });
  afterAll(async () => t?.close());

  it('refuses a rule whose URL names an internal, reserved or metadata address (400 on the URL)', async () => {
    for (const [what, url] of Object.entries({ ...INTERNAL, ...METADATA })) {
      for (const type of ['webhook', 'slack'] as const) {
        const res = await create(c, url, type);
        expect(res.status, `${what} ${type}`).toBe(400);
        expect(res.body.errors, what).toEqual([{ field: 'channel.url', message: NOT_ALLOWED_EN }]);
      }
    }
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    const res = await pt.post(`${ALERTS}/create`, {
      name: 'Pt',
      events: ['execution.application_error'],
      channel: { type: 'webhook', url: INTERNAL.cgnat, secret: SECRET },
    });
    expect(res.body.errors[0].message).toMatch(/^Destino não permitido/);
    // A change to such a URL too.
    const ok = await create(c, 'https://hooks.example.com/rota');
    expect(ok.status).toBe(201);
    const changed = await c.admin.put(`${ALERTS}/update`, {
      id: ok.body.data.rota_alerts_id,
      channel: { type: 'webhook', url: INTERNAL.nat64Private, secret: SECRET },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.errors[0].field).toBe('channel.url');
  });

  it('refuses `localhost` after resolving it, at send: nothing reaches the receiver', async () => {
    const hook = await receiver();
    const port = new URL(hook.url).port;
    const saved = await create(c, `http://localhost:${port}/hook`);
    expect(saved.status).toBe(201);
    const res = await c.admin.post(`${ALERTS}/test`, { id: saved.body.data.rota_alerts_id });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'failed',
      response_code: null,
      last_error: 'destination_not_allowed',
    });
    expect(hook.received).toHaveLength(0);
  });
});

describe('with ALERT_ALLOWED_NETWORKS', () => {
  let t: TestApp;
  let c: Tenants;
  beforeAll(async () => {
    t = await createTestApp({ allowedNetworks: EVERY_RANGE });
    c = await setUpTenants(t);
  });
  afterAll(async () => t?.close());

  it('accepts the allowed ranges, never the metadata services', async () => {
    // IPv6 forms that carry an IPv4 address (SIIT, compatible, 6to4) are their own route: their
    // prefix has to be listed too, as 64:ff9b::/96 is here; metadata in any form never passes.
    const stillRefused = [
      'nat64Metadata',
      'siitMetadata',
      'siitLoopback',
      'compatibleLoopback',
      'sixToFourLoopback',
      // IPv6 ranges not listed (0.0.0.0/0 opens only IPv4).
      'unspecifiedV6',
      'multicastV6',
      'documentationV6',
    ];
    for (const [what, url] of Object.entries(INTERNAL)) {
      const res = await create(c, url);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(
        stillRefused.includes(what) ? 400 : 201,
      );
    }
    for (const [what, url] of Object.entries(METADATA)) {
      const res = await create(c, url);
      expect(res.status, what).toBe(400);
      expect(res.body.errors, what).toEqual([{ field: 'channel.url', message: NOT_ALLOWED_EN }]);
    }
  });

  it('delivers to a receiver on an allowed network, by address and by `localhost`', async () => {
    const hook = await receiver();
    const port = new URL(hook.url).port;
    for (const url of [hook.url, `http://localhost:${port}/hook`]) {
      const saved = await create(c, url);
      expect(saved.status).toBe(201);
      const res = await c.admin.post(`${ALERTS}/test`, { id: saved.body.data.rota_alerts_id });
      expect(res.body.data, url).toMatchObject({ status: 'delivered', response_code: 200 });
    }
    expect(hook.received).toHaveLength(2);
  });
});

describe('ALERT_ALLOWED_NETWORKS at start', () => {
  it('takes comma-separated CIDRs and refuses anything else, naming it', () => {
    expect(
      loadConfig({ ALERT_ALLOWED_NETWORKS: ' 10.0.0.0/8 , fd00::/8,127.0.0.1/32' }),
    ).toMatchObject({ ALERT_ALLOWED_NETWORKS: expect.any(String) });
    expect(loadConfig({}).ALERT_ALLOWED_NETWORKS).toBeUndefined();
    for (const bad of ['10.0.0.0/33', 'intranet', '10.0.0.0/8;192.168.0.0/16', 'fe80::/129']) {
      let error: unknown;
      try {
        loadConfig({ ALERT_ALLOWED_NETWORKS: bad });
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n'), bad).toMatch(/^ALERT_ALLOWED_NETWORKS: /);
    }
  });
});
