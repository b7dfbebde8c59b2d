import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry, telemetryConfigured, type Telemetry } from '../src/lib/telemetry.js';
import { runNow, simulatedAgent } from './helpers/engine.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

interface OtlpSpan {
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** A loopback OTLP/HTTP collector: every span of every JSON export it receives. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const resources: unknown[] = [];
  let contentType = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentType = String(req.headers['content-type']);
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { resource: unknown; scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const r of body.resourceSpans) {
          resources.push(r.resource);
          for (const s of r.scopeSpans) spans.push(...s.spans);
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    resources,
    contentType: () => contentType,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const attr = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

describe('OpenTelemetry traces', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let telemetry: Telemetry | null;
  let t: TestApp;
  let c: Tenants;

  beforeAll(async () => {
    collector = await startCollector();
    telemetry = await startTelemetry('test', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: 'rota-test',
    });
    t = await createTestApp();
    c = await setUpTenants(t);
  });
  afterAll(async () => {
    await t?.close();
    await telemetry?.shutdown();
    await collector?.close();
  });

  it('is off, loading nothing, when no collector is configured', async () => {
    expect(telemetryConfigured({})).toBe(false);
    expect(await startTelemetry('test', {})).toBeNull();
  });

  it('sends a span per request, per claim and per run to the collector', async () => {
    const vm = await createVm(c.admin, 'Traced VM');
    const agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Traced agent', vm)).token);
    expect((await agent.hello()).status).toBe(200);
    const robot = await createRobot(c.admin, 'Traced robot');
    await runNow(c.admin, { id: robot });
    const run = await agent.claim();
    expect(run).not.toBeNull();
    expect((await agent.finish(run!.execution_id, run!.attempt, 'business_error', 3)).status).toBe(
      200,
    );
    await telemetry!.flush();

    expect(collector.contentType()).toContain('application/json');
    const request = collector.spans.find((s) => s.name === 'POST /api/rota/robot/api/v1/run');
    expect(request?.kind).toBe(2); // SERVER
    expect(attr(request, 'http.route')).toBe('/api/rota/robot/api/v1/run');
    expect(Number(attr(request, 'http.response.status_code'))).toBe(201);

    const claim = collector.spans.find((s) => s.name === 'rota.claim');
    expect(Number(attr(claim, 'rota.claim.runs'))).toBe(1);
    expect(Number(attr(claim, 'rota.client.id'))).toBe(c.defaultClientId);

    const runSpan = collector.spans.find(
      (s) => s.name === 'rota.run' && Number(attr(s, 'rota.execution.id')) === run!.execution_id,
    );
    expect(runSpan).toBeDefined();
    expect(attr(runSpan, 'rota.execution.status')).toBe('business_error');
    expect(Number(attr(runSpan, 'rota.robot.id'))).toBe(robot);
    expect(JSON.stringify(collector.resources)).toContain('rota-test');
  });
});
