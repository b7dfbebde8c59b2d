import { readFile } from 'node:fs/promises';
import type { SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
// @ts-expect-error: the parser ships no types; its output is typed below (Family).
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/env.js';
import type { Db } from '../src/db/client.js';
import { isLoopback, tokenMatches } from '../src/modules/metrics/access.js';
import { MetricsService } from '../src/modules/metrics/service.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { startHttpReceiver } from './helpers/receivers.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

/** A metric family as parse-prometheus-text-format answers it (values are strings). */
interface Sample {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
  sum?: string;
}
interface Family {
  name: string;
  help: string;
  type: string;
  metrics: Sample[];
}
const parse = parsePrometheusTextFormat as (text: string) => Family[];

const TOKEN = 'metrics-token-0123456789abcdef';

let t: TestApp;
let c: Tenants;
let robot: number;
let agentId: number;
let agent: ReturnType<typeof simulatedAgent>;

beforeAll(async () => {
  t = await createTestApp({ metricsToken: TOKEN, trustProxy: true });
  c = await setUpTenants(t);
  robot = await createRobot(c.admin, 'Metrics robot');
  const vm = await createVm(c.admin, 'Metrics VM');
  const created = await createAgent(c.admin, 'Metrics agent', vm);
  agentId = created.rota_nodes_id;
  agent = simulatedAgent(t.app, created.token);
  expect((await agent.hello()).status).toBe(200);
  // Three runs: one ends well, one fails, one stays queued.
  for (let i = 0; i < 3; i += 1) await runNow(c.admin, { id: robot });
  const first = await agent.claim();
  expect((await agent.finish(first!.execution_id, first!.attempt, 'success', 0)).status).toBe(200);
  const second = await agent.claim();
  const failed = await agent.finish(second!.execution_id, second!.attempt, 'application_error', 1);
  expect(failed.status).toBe(200);
  // A request no route answers: counted as "unmatched", never by its URL.
  expect((await t.app.inject({ method: 'GET', url: '/api/no/such/route/42' })).statusCode).toBe(
    404,
  );
});
afterAll(async () => {
  await t?.close();
});

function scrape(options: { from?: string; headers?: Record<string, string> } = {}) {
  return t.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: options.from ?? '127.0.0.1',
    headers: options.headers,
  });
}

async function families(): Promise<Map<string, Family>> {
  const res = await scrape();
  expect(res.statusCode).toBe(200);
  return new Map(parse(res.body).map((f) => [f.name, f]));
}

/** The sample of `family` whose labels include `labels`. */
function sample(family: Family | undefined, labels: Record<string, string>) {
  return family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
}

describe('GET /metrics', () => {
  it('answers loopback in the Prometheus text format', async () => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(parse(res.body).length).toBeGreaterThan(10);
  });

  it('counts executions by client and status', async () => {
    const executions = (await families()).get('rota_executions');
    expect(executions?.type).toBe('GAUGE');
    const client = String(c.defaultClientId);
    for (const [status, n] of [
      ['success', '1'],
      ['application_error', '1'],
      ['queued', '1'],
    ]) {
      expect(sample(executions, { client, status: status! })?.value, status).toBe(n);
    }
    expect(sample(executions, { client, status: 'processing' })).toBeUndefined();
  });

  it('shows the queue depth of each robot', async () => {
    const depth = (await families()).get('rota_queue_depth');
    expect(sample(depth, { client: String(c.defaultClientId), robot: String(robot) })?.value).toBe(
      '1',
    );
  });

  it('observes the claim latency of each first attempt', async () => {
    const latency = (await families()).get('rota_claim_latency_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    const [h] = latency!.metrics;
    expect(h!.count).toBe('2');
    expect(h!.buckets!['+Inf']).toBe('2');
    expect(Object.keys(h!.buckets!)).toContain('0.1');
  });

  it('counts agents by connectivity', async () => {
    const agents = (await families()).get('rota_agents');
    const client = String(c.defaultClientId);
    expect(sample(agents, { client, connectivity: 'active' })?.value).toBe('1');
    // An agent never seen is inactive.
    await createAgent(c.admin, 'Metrics agent never seen', await createVm(c.admin, 'Quiet VM'));
    const again = (await families()).get('rota_agents');
    expect(sample(again, { client, connectivity: 'inactive' })?.value).toBe('1');
    expect(agentId).toBeGreaterThan(0);
  });

  it('counts HTTP requests by route template and status, with their durations', async () => {
    const found = await families();
    const requests = found.get('rota_http_requests_total');
    const run = sample(requests, {
      method: 'POST',
      route: '/api/rota/robot/api/v1/run',
      status: '201',
    });
    expect(Number(run?.value)).toBe(3);
    expect(sample(requests, { method: 'GET', route: 'unmatched', status: '404' })).toBeDefined();
    // Templates only: no raw URL of a request that matched nothing.
    expect(requests!.metrics.some((m) => m.labels?.route?.includes('no/such'))).toBe(false);
    expect(found.get('rota_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // The parser folds the series of a labelled histogram into one (labels lost): read the line.
    const text = (await scrape()).body;
    expect(text).toContain(
      'rota_http_request_duration_seconds_count{method="POST",route="/api/rota/robot/api/v1/run"} 3\n',
    );
  });

  it("has Node's process metrics", async () => {
    const found = await families();
    expect(found.has('process_cpu_user_seconds_total')).toBe(true);
    expect(found.has('nodejs_heap_size_total_bytes')).toBe(true);
  });

  it('refuses another machine without the token, and answers it with the token', async () => {
    const from = '10.1.2.3';
    const none = await scrape({ from });
    expect(none.statusCode).toBe(401);
    expect(JSON.parse(none.body).code).toBe('unauthorized');
    const wrong = await scrape({ from, headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    const right = await scrape({ from, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('rota_executions');
  });

  it('trusts the socket, not X-Forwarded-For, even behind a trusted proxy', async () => {
    const res = await scrape({ from: '10.1.2.3', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(res.statusCode).toBe(401);
    const v6 = await scrape({ from: '::1' });
    expect(v6.statusCode).toBe(200);
  });

  it('refuses what a reverse proxy on this machine passes on, as it refuses another machine', async () => {
    // TRUST_PROXY is on here: the proxy connects from loopback and names its client.
    const forwarded: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.7' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
    ];
    for (const headers of forwarded) {
      const proxied = await scrape({ from: '127.0.0.1', headers });
      expect(proxied.statusCode, JSON.stringify(headers)).toBe(401);
      expect(JSON.parse(proxied.body).code).toBe('unauthorized');
      const v6 = await scrape({ from: '::1', headers });
      expect(v6.statusCode).toBe(401);
    }
    // The same proxy with the token in the request passes it.
    const bearer = await scrape({
      from: '127.0.0.1',
      headers: { 'x-forwarded-for': '203.0.113.7', authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.statusCode).toBe(200);
    // A scraper on this machine, straight to the socket.
    expect((await scrape({ from: '127.0.0.1' })).statusCode).toBe(200);
  });

  it('is not part of the OpenAPI document', () => {
    const doc = t.app.swagger() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics without METRICS_TOKEN nor TRUST_PROXY', () => {
  it('answers only a direct loopback peer, not one that a proxy passed on', async () => {
    const plain = await createTestApp();
    try {
      const get = (headers: Record<string, string> = {}) =>
        plain.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1', headers });
      expect((await get()).statusCode).toBe(200);
      expect((await get({ 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(401);
      // No token configured: no bearer opens it.
      expect((await get({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
      const remote = await plain.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(remote.statusCode).toBe(401);
    } finally {
      await plain.close();
    }
  });
});

describe('a gauge whose query fails', () => {
  it('is logged and left out; the rest of the scrape answers', async () => {
    const dialect = (t.db as unknown as { dialect: PgDialect }).dialect;
    // The agents' query fails; every other statement goes to the real database.
    const failing = new Proxy(t.db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return (statement: SQL) =>
          dialect.sqlToQuery(statement).sql.includes('rota_nodes')
            ? Promise.reject(new Error('relation is gone'))
            : target.execute(statement);
      },
    }) as Db;
    const warnings: unknown[] = [];
    const metrics = new MetricsService(failing, { warn: (obj) => warnings.push(obj) });
    const found = new Map(parse((await metrics.scrape()).body).map((f) => [f.name, f]));
    expect(found.get('rota_agents')?.metrics ?? []).toEqual([]);
    expect(
      sample(found.get('rota_executions'), {
        client: String(c.defaultClientId),
        status: 'success',
      })?.value,
    ).toBe('1');
    expect(warnings).toEqual([expect.objectContaining({ metric: 'rota_agents' })]);
  });
});

describe('docs/grafana-dashboard.json', () => {
  it('is valid JSON whose every query names a metric the server exposes', async () => {
    const text = await readFile(new URL('../../../docs/grafana-dashboard.json', import.meta.url));
    const dashboard = JSON.parse(text.toString()) as {
      panels: { title: string; targets?: { expr: string }[] }[];
    };
    const exposed = new Set((await families()).keys());
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((x) => x.expr));
    expect(exprs.length).toBeGreaterThan(5);
    const named = new Set<string>();
    for (const expr of exprs) {
      const names = expr.match(/\b(?:rota|process|nodejs)_[a-z0-9_]+/g) ?? [];
      expect(names.length, expr).toBeGreaterThan(0);
      for (const name of names) {
        const family = name.replace(/_(bucket|sum|count)$/, '');
        expect(exposed.has(name) || exposed.has(family), `${name} in ${expr}`).toBe(true);
        named.add(family);
      }
    }
    // A panel for each of Rota's own metrics.
    for (const name of [...exposed].filter((n) => n.startsWith('rota_'))) {
      expect(named.has(name), `no panel shows ${name}`).toBe(true);
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('is optional, at least 16 characters when set, and never echoed', () => {
    expect(loadConfig({}).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
    for (const bad of ['short-token', 'sixteen chars with spaces']) {
      let error: unknown;
      try {
        loadConfig({ METRICS_TOKEN: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems[0]).toMatch(/^METRICS_TOKEN: /);
      expect((error as ConfigError).message).not.toContain(bad);
    }
  });
});

describe('who is loopback', () => {
  it('is the socket peer 127.0.0.0/8 or ::1, IPv4-mapped or not', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopback(address), address).toBe(true);
    }
    for (const address of [undefined, '', '10.1.2.3', '::ffff:10.1.2.3', '::2', '1270.0.0.1']) {
      expect(isLoopback(address), String(address)).toBe(false);
    }
  });

  it('matches a token only when one is configured and equal', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN, undefined)).toBe(false);
    expect(tokenMatches('', '')).toBe(false);
  });
});

describe('rota_alert_deliveries_total', () => {
  it('counts the alert worker\u2019s attempts by outcome and channel (real receivers)', async () => {
    const down = await startHttpReceiver([500]);
    const up = await startHttpReceiver([200]);
    try {
      const failing = await createRobot(c.admin, 'Metrics alerting robot');
      for (const [name, hook] of [
        ['Down hook', down],
        ['Up hook', up],
      ] as const) {
        const res = await c.admin.post('/api/rota/alert/api/v1/create', {
          name,
          events: ['execution.application_error'],
          rota_robots_ids: [failing],
          channel: { type: 'webhook', url: hook.url, secret: 'metrics-hook-secret-123' },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      // Ahead of the run left queued above.
      await runNow(c.admin, { id: failing, priority: 99 });
      const run = await agent.claim();
      expect(run?.robot.rota_robots_id).toBe(failing);
      await agent.finish(run!.execution_id, run!.attempt, 'application_error', 1);
      await t.app.services.alerts.worker.tick();
      expect(down.received).toHaveLength(1);
      expect(up.received).toHaveLength(1);
      const counter = (await families()).get('rota_alert_deliveries_total');
      expect(counter?.type).toBe('COUNTER');
      expect(sample(counter, { outcome: 'delivered', channel: 'webhook' })?.value).toBe('1');
      expect(sample(counter, { outcome: 'retry', channel: 'webhook' })?.value).toBe('1');
    } finally {
      await down.close();
      await up.close();
    }
  });
});
