import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './helpers/database.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let webRoot: string;

beforeAll(async () => {
  webRoot = await mkdtemp(path.join(os.tmpdir(), 'rota-web-'));
  await writeFile(
    path.join(webRoot, 'index.html'),
    '<!doctype html><title>Rota - Control Room</title><div id="root"></div>',
  );
  await mkdir(path.join(webRoot, 'assets'));
  await writeFile(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ webRoot });
});
afterAll(async () => {
  await t.close();
  await rm(webRoot, { recursive: true, force: true });
});

describe('health and documentation', () => {
  it('answers ok once the database answers', async () => {
    const res = await client(t.app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers 503 (not 500) while the database does not answer', async () => {
    const database = await openTestDatabase();
    const broken = await createTestApp({ database });
    try {
      expect((await client(broken.app).get('/api/health')).status).toBe(200);
      await database.close();
      const res = await client(broken.app, { lang: 'pt' }).get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        code: 'service_unavailable',
        message: 'Serviço indisponível: o banco de dados não responde',
        // The log's line for this failure carries the same id.
        request_id: expect.any(String),
      });
    } finally {
      await broken.app.close();
      await rm(broken.dataDir, { recursive: true, force: true });
    }
  });

  it('serves the OpenAPI document generated from the schemas, and its UI', async () => {
    const doc = await client(t.app).get('/api/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    const session = doc.body.paths['/api/user/api/auth/v1/session'].post;
    expect(Object.keys(session.requestBody.content['application/json'].schema.properties)).toEqual([
      'access',
      'password',
    ]);
    // A session, or a second-factor challenge.
    const answers = session.responses['200'].content['application/json'].schema.anyOf as {
      properties: Record<string, unknown>;
    }[];
    expect(answers.some((a) => 'rota_clients_id_selected' in a.properties)).toBe(true);
    expect(answers.some((a) => 'mfa_required' in a.properties)).toBe(true);
    expect(doc.body.paths).toHaveProperty(['/api/user/profile/api/v1/index']);
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect([200, 302]).toContain(ui.statusCode);
    if (ui.statusCode === 200) expect(ui.body).toContain('swagger');
  });
});

describe('console and fallbacks', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/rota/robot/api/v1/unknown'],
      ['GET', '/api'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ code: 'route_not_found' });
    }
  });

  it('serves the console for any other path (SPA fallback)', async () => {
    for (const url of ['/', '/dashboard', '/login/sign-in', '/robot/field?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Rota - Control Room');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('sends the very headers @fastify/helmet sent, precomputed, on HTML, API answers and 404s', async () => {
    // What helmet (through @fastify/helmet) sent before they were computed once.
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';" +
        "frame-ancestors 'none';img-src 'self' data: blob:;object-src 'none';script-src 'self';" +
        "script-src-attr 'none';style-src 'self' 'unsafe-inline';connect-src 'self'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    };
    const answers = [
      await t.app.inject({ method: 'GET', url: '/dashboard' }),
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'POST', url: '/api/user/api/auth/v1/me' }),
      await t.app.inject({ method: 'GET', url: '/api/nope' }),
    ];
    for (const res of answers) {
      const security = Object.fromEntries(
        Object.entries(res.headers).filter(([name]) => name in expected),
      );
      expect(security).toEqual(expected);
      // In helmet's order too, as `curl -i` shows them.
      expect(Object.keys(security)).toEqual(Object.keys(expected));
    }
  });

  it('logs no line per request unless LOG_REQUESTS', async () => {
    for (const logRequests of [false, true]) {
      const lines: { msg: string; reqId?: string }[] = [];
      const logged = await createTestApp({
        logRequests,
        logger: { level: 'info', stream: { write: (l: string) => void lines.push(JSON.parse(l)) } },
      });
      try {
        await logged.app.inject({ method: 'GET', url: '/api/health' });
        const messages = lines.map((l) => l.msg);
        expect(messages.includes('incoming request')).toBe(logRequests);
        expect(messages.includes('request completed')).toBe(logRequests);
      } finally {
        await logged.close();
      }
    }
  });

  it('sends HSTS only over HTTPS, as told by a trusted proxy', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Not trusting proxies (the default), a client cannot claim HTTPS.
    const claimed = await t.app.inject({ method: 'GET', url: '/api/health', headers: https });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();

    const proxied = await createTestApp({ trustProxy: true });
    try {
      const secure = await proxied.app.inject({ method: 'GET', url: '/dashboard', headers: https });
      expect(secure.headers['strict-transport-security']).toMatch(
        /^max-age=\d+; includeSubDomains$/,
      );
      const api = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: https });
      expect(api.headers['strict-transport-security']).toBeTruthy();
      const http = await proxied.app.inject({ method: 'GET', url: '/dashboard' });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('bad bodies never give a 500', () => {
  const session = '/api/user/api/auth/v1/session';

  it('answers 413 to a body over 1 MB', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: session,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ access: 'a'.repeat(1024 * 1024), password: 'x' }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('body_too_large');
  });

  it('answers 400 to malformed JSON, in the caller’s language', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: session,
      headers: { 'content-type': 'application/json', 'accept-language': 'pt-BR,pt;q=0.9' },
      payload: '{"access": "admin", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_json',
      message: 'O corpo da requisição não é um JSON válido',
    });
  });

  it('answers 415 to an unsupported content type, and 400 to an empty or wrongly typed body', async () => {
    const xml = await t.app.inject({
      method: 'POST',
      url: session,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    const empty = await t.app.inject({
      method: 'POST',
      url: session,
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    const array = await client(t.app).post(session, [1, 2]);
    expect(array.status).toBe(400);
    const numbers = await client(t.app, { lang: 'en' }).post(session, {
      access: 5,
      password: true,
    });
    expect(numbers.status).toBe(400);
    expect(numbers.body.errors).toEqual([
      { field: 'access', message: 'Required acess' },
      { field: 'password', message: 'Required password' },
    ]);
  });
});
