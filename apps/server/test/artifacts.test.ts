import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACT_MAX_BYTES } from '@rota/contract';
import { rotaArtifacts, rotaExecutions } from '../src/db/schema/index.js';
import { packageStillUsed } from '../src/modules/robot-versions/repository.js';
import { ACTIVITY, RUN_API, runNow, simulatedAgent } from './helpers/engine.js';
import { multipart, type FilePart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createTestApp, type TestApp } from './helpers/test-app.js';
import { createAgent, createVm } from './helpers/vms.js';

let t: TestApp;
let c: Tenants;
let agent: ReturnType<typeof simulatedAgent>;

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  c = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
  const vm = await createVm(c.admin, 'Artifacts VM');
  agent = simulatedAgent(t.app, (await createAgent(c.admin, 'Artifacts agent', vm)).token);
  expect((await agent.hello()).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A processing run of a new robot: its execution id and run token. */
async function startRun(name: string) {
  const robot = await createRobot(c.admin, name);
  const id = await runNow(c.admin, { id: robot });
  const run = await agent.claim();
  expect(run?.execution_id).toBe(id);
  return { id, token: run!.environment.ROTA_EXECUTION_TOKEN! };
}

async function upload(token: string, fields: Record<string, string>, file?: FilePart) {
  const { payload, contentType } = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: `${RUN_API}/artifact/upload`,
    payload,
    headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
  });
  return { status: res.statusCode, body: res.json() };
}

async function download(token: string, id: number, inline = false) {
  return t.app.inject({
    method: 'GET',
    url: `${ACTIVITY}/artifact/download?id=${id}${inline ? '&inline=1' : ''}`,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe('artifacts', () => {
  it('uploads, lists and downloads an artifact with the same bytes', async () => {
    const { id, token } = await startRun('Artifacts round trip');
    const up = await upload(token, {}, { name: 'screen.png', data: PNG, type: 'image/png' });
    expect(up.status).toBe(201);
    expect(up.body.data).toMatchObject({
      name: 'screen.png',
      media_type: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
    });
    const csv = Buffer.from('a,b\n1,2\n');
    const named = await upload(
      token,
      { name: 'Relatório final.csv' },
      { name: 'x.csv', data: csv, type: 'text/csv; charset=utf-8' },
    );
    expect(named.status).toBe(201);
    expect(named.body.data).toMatchObject({ name: 'Relatório final.csv', media_type: 'text/csv' });

    const list = await c.admin.post(`${ACTIVITY}/artifact/index`, { id });
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { name: string }) => a.name)).toEqual([
      'screen.png',
      'Relatório final.csv',
    ]);

    const got = await download(c.adminToken, up.body.data.rota_artifacts_id);
    expect(got.statusCode).toBe(200);
    expect(sha256(got.rawPayload)).toBe(sha256(PNG));
    expect(got.headers['content-disposition']).toMatch(/^attachment; filename="screen.png"/);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    const inline = await download(c.adminToken, up.body.data.rota_artifacts_id, true);
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toMatch(/^inline;/);

    const report = await download(c.adminToken, named.body.data.rota_artifacts_id);
    expect(report.rawPayload.equals(csv)).toBe(true);
    expect(report.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Relatório final.csv')}`,
    );
  });

  it('never serves HTML or SVG inline', async () => {
    const { token } = await startRun('Artifacts html');
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
    ] as const) {
      const up = await upload(
        token,
        {},
        { name, data: Buffer.from('<svg onload=alert(1)>'), type },
      );
      expect(up.status).toBe(201);
      const got = await download(c.adminToken, up.body.data.rota_artifacts_id, true);
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-disposition']).toMatch(/^attachment;/);
      expect(got.headers['content-type']).toBe('application/octet-stream');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses a file over 20 MB, keeping nothing', async () => {
    const { id, token } = await startRun('Artifacts too large');
    const before = await t.app.services.blobs.names('package');
    const big = Buffer.alloc(ARTIFACT_MAX_BYTES + 1, 1);
    const res = await upload(token, {}, { name: 'big.bin', data: big });
    expect([400, 413]).toContain(res.status);
    expect(
      await t.db.select().from(rotaArtifacts).where(eq(rotaArtifacts.rota_executions_id, id)),
    ).toEqual([]);
    expect(await t.app.services.blobs.names('package')).toEqual(before);
  });

  it('refuses bad names and bad media types', async () => {
    const { token } = await startRun('Artifacts names');
    for (const name of ['../etc/passwd', 'a\u0000b', 'dir\\file', 'x'.repeat(201), '..']) {
      const res = await upload(token, { name }, { name: 'ok.txt', data: Buffer.from('x') });
      expect(res.status, name).toBe(400);
      expect(res.body.errors[0].field).toBe('name');
    }
    const typed = await upload(
      token,
      {},
      { name: 'a.txt', data: Buffer.from('x'), type: 'nonsense' },
    );
    expect(typed.status).toBe(400);
    // A file name with a client path keeps its last segment.
    const path = await upload(token, {}, { name: 'C:\\\\Users\\\\x\\\\shot.png', data: PNG });
    expect(path.status).toBe(201);
    expect(path.body.data.name).toBe('shot.png');
  });

  it('keeps at most 100 per execution', async () => {
    const { token } = await startRun('Artifacts limit');
    for (let i = 0; i < 100; i += 1) {
      const res = await upload(token, {}, { name: `${i}.txt`, data: Buffer.from(String(i)) });
      expect(res.status).toBe(201);
    }
    const over = await upload(token, {}, { name: '101.txt', data: Buffer.from('101') });
    expect(over.status).toBe(400);
    expect(over.body.errors[0].message).toMatch(/100/);
  });

  it('refuses an upload of a run that is not processing, and a bad token', async () => {
    const { id, token } = await startRun('Artifacts ended');
    expect((await agent.finish(id, 1, 'success', 0)).status).toBe(200);
    const res = await upload(token, {}, { name: 'late.txt', data: Buffer.from('late') });
    expect(res.status).toBe(409);
    expect(
      (await upload('not-a-token', {}, { name: 'a.txt', data: Buffer.from('a') })).status,
    ).toBe(401);
    const list = await c.admin.post(`${ACTIVITY}/artifact/index`, { id });
    expect(list.body.data).toEqual([]);
  });

  it("answers 404 for another client's execution and artifact", async () => {
    const { id, token } = await startRun('Artifacts foreign');
    const up = await upload(token, {}, { name: 'mine.txt', data: Buffer.from('mine') });
    expect((await c.other.post(`${ACTIVITY}/artifact/index`, { id })).status).toBe(404);
    expect((await download(c.otherToken, up.body.data.rota_artifacts_id)).statusCode).toBe(404);
  });

  it('drops artifacts with their execution, and the sweep removes their blobs', async () => {
    const { id, token } = await startRun('Artifacts deleted');
    const data = Buffer.from(`only here ${Math.random()}`);
    const up = await upload(token, {}, { name: 'gone.txt', data });
    expect(up.status).toBe(201);
    const { blobs, blobSweeper } = t.app.services;
    expect(await blobs.names('package')).toContain(sha256(data));
    // A version's delete keeps a blob an artifact shares (files are one blob per content).
    expect(await packageStillUsed(t.db, sha256(data), 0)).toBe(true);
    // Still referenced: the sweep keeps it, even with no grace period.
    await blobSweeper.sweep(-60_000);
    expect(await blobs.names('package')).toContain(sha256(data));
    await t.db.delete(rotaExecutions).where(eq(rotaExecutions.rota_executions_id, id));
    expect(
      await t.db.select().from(rotaArtifacts).where(eq(rotaArtifacts.rota_executions_id, id)),
    ).toEqual([]);
    const swept = await blobSweeper.sweep(-60_000);
    expect(swept.blobs).toContainEqual({ kind: 'package', name: sha256(data) });
    expect(await packageStillUsed(t.db, sha256(data), 0)).toBe(false);
    expect(await blobs.names('package')).not.toContain(sha256(data));
    expect((await download(c.adminToken, up.body.data.rota_artifacts_id)).statusCode).toBe(404);
  });
});

describe('logs search and download', () => {
  it('finds lines by a case-insensitive substring, with LIKE characters taken literally', async () => {
    const { id } = await startRun('Logs search');
    const lines = ['Starting', 'Invoice 42 OK', 'invoice 43 failed', '100% done', 'a_b', 'ab'];
    expect((await agent.logs(id, 1, lines)).status).toBe(200);
    const search = async (text: string) => {
      const res = await c.admin.post(`${ACTIVITY}/logs`, { id, search: text });
      expect(res.status).toBe(200);
      return res.body.data.map((l: { line: string }) => l.line);
    };
    expect(await search('INVOICE')).toEqual(['Invoice 42 OK', 'invoice 43 failed']);
    expect(await search('%')).toEqual(['100% done']);
    expect(await search('_')).toEqual(['a_b']);
    expect(await search('nothing')).toEqual([]);
    expect((await c.other.post(`${ACTIVITY}/logs`, { id, search: 'invoice' })).status).toBe(404);
  });

  it('downloads the whole log as a text file, in batches', async () => {
    const { id } = await startRun('Logs download');
    const lines = Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`);
    for (let from = 0; from < lines.length; from += 500) {
      expect((await agent.logs(id, 1, lines.slice(from, from + 500), from + 1)).status).toBe(200);
    }
    const res = await t.app.inject({
      method: 'GET',
      url: `${ACTIVITY}/logs/download?id=${id}`,
      headers: { authorization: `Bearer ${c.adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="execution-${id}.log"`);
    const text = res.payload.trimEnd().split('\n');
    expect(text[0]).toBe('--- attempt 1 ---');
    expect(text).toHaveLength(2501);
    expect(text[1]).toMatch(/^\d{4}-\d\d-\d\dT.* stdout line 1$/);
    expect(text.at(-1)).toMatch(/ stdout line 2500$/);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `${ACTIVITY}/logs/download?id=${id}`,
      headers: { authorization: `Bearer ${c.otherToken}` },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
