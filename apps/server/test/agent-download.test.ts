import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

const B = '/api/rota/agent/download/api/v1';
let t: TestApp;
let c: Tenants;
let release: string;
const logLines: string[] = [];

const LINUX = Buffer.from(`\x7fELF${'linux agent bytes '.repeat(300)}`);
const WINDOWS = Buffer.from(`MZ${'windows agent bytes '.repeat(250)}`);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function manifest() {
  return {
    version: '3.2.0',
    built_at: new Date().toISOString(),
    files: {
      'linux-x64': { file: 'rota-agent-linux-x64', sha256: sha256(LINUX), bytes: LINUX.length },
      'win-x64': { file: 'rota-agent-win-x64.exe', sha256: sha256(WINDOWS), bytes: WINDOWS.length },
    },
  };
}

/** A release folder as `npm run package:agent` leaves it. */
async function writeRelease(manifestText = JSON.stringify(manifest())) {
  await writeFile(path.join(release, 'rota-agent-linux-x64'), LINUX);
  await writeFile(path.join(release, 'rota-agent-win-x64.exe'), WINDOWS);
  await writeFile(path.join(release, 'manifest.json'), manifestText);
}

/** The bytes as sent (the test client reads bodies as text). */
const download = (platform: string, token?: string) =>
  t.app.inject({
    method: 'GET',
    url: `${B}/${platform}`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

beforeAll(async () => {
  release = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-release-'));
  t = await createTestApp({
    agentReleaseDir: release,
    logRequests: false,
    logger: {
      level: 'warn',
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    },
  });
  c = await setUpTenants(t);
});
afterAll(async () => {
  await t.close();
  await rm(release, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(release, { recursive: true, force: true });
  await mkdir(release, { recursive: true });
});

describe('agent download', () => {
  it('needs a session (401) and AGENTES.LIST (403)', async () => {
    await writeRelease();
    expect((await client(t.app).get(`${B}/index`)).status).toBe(401);
    expect((await download('linux-x64')).statusCode).toBe(401);
    const index = await c.limited.get(`${B}/index`);
    expect(index.status).toBe(403);
    expect(index.body.code).toBe('forbidden');
    expect((await c.limited.get(`${B}/linux-x64`)).status).toBe(403);
  });

  it('answers 404 agent_build_missing when nothing was packaged, in the caller’s language', async () => {
    const index = await c.admin.get(`${B}/index`);
    expect(index.status).toBe(404);
    expect(index.body).toMatchObject({ code: 'agent_build_missing' });
    expect(index.body.message).toContain('npm run package:agent');
    const pt = await client(t.app, { token: c.adminToken, lang: 'pt' }).get(`${B}/win-x64`);
    expect(pt.status).toBe(404);
    expect(pt.body.code).toBe('agent_build_missing');
    expect(pt.body.message).toContain('Nenhum agente');
  });

  it('serves a personal API key as its user (a script fetching the agent)', async () => {
    await writeRelease();
    const made = await c.admin.post('/api/user/apikey/api/v1/create', { name: 'Fetch agent' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key: string = made.body.data.key;
    expect((await client(t.app, { token: key }).get(`${B}/index`)).status).toBe(200);
    const res = await download('linux-x64', key);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(LINUX)).toBe(true);
  });

  it('lists what was packaged and serves each executable with its size and SHA-256', async () => {
    await writeRelease();
    const index = await c.admin.get(`${B}/index`);
    expect(index.status).toBe(200);
    expect(index.body.data).toEqual({
      version: '3.2.0',
      platforms: [
        {
          platform: 'linux-x64',
          file: 'rota-agent-linux-x64',
          sha256: sha256(LINUX),
          bytes: LINUX.length,
        },
        {
          platform: 'win-x64',
          file: 'rota-agent-win-x64.exe',
          sha256: sha256(WINDOWS),
          bytes: WINDOWS.length,
        },
      ],
    });
    for (const [platform, bytes, file] of [
      ['linux-x64', LINUX, 'rota-agent-linux-x64'],
      ['win-x64', WINDOWS, 'rota-agent-win-x64.exe'],
    ] as const) {
      const res = await download(platform, c.adminToken);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(bytes)).toBe(true);
      expect(res.headers['content-length']).toBe(String(bytes.length));
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${file}"`);
      expect(res.headers['x-rota-sha256']).toBe(sha256(res.rawPayload));
    }
  });

  it('leaves out a platform whose file is absent or not the manifest’s size', async () => {
    await writeRelease();
    await rm(path.join(release, 'rota-agent-win-x64.exe'));
    await writeFile(path.join(release, 'rota-agent-linux-x64'), LINUX.subarray(0, 100));
    expect((await c.admin.get(`${B}/index`)).body.code).toBe('agent_build_missing');
    expect((await download('win-x64', c.adminToken)).statusCode).toBe(404);
    const truncated = await download('linux-x64', c.adminToken);
    expect(truncated.statusCode).toBe(404);
    expect(truncated.json().code).toBe('agent_build_missing');
  });

  it.each([
    ['not JSON', '{"version": '],
    ['not a manifest', JSON.stringify({ version: '3.2.0', files: 'none' })],
    [
      'a file outside the folder',
      JSON.stringify({
        version: '3.2.0',
        files: { 'linux-x64': { file: '../secret', sha256: sha256(LINUX), bytes: 1 } },
      }),
    ],
  ])(
    'a corrupt manifest (%s) is 404 agent_build_missing and a log line, not 500',
    async (_, text) => {
      await writeRelease(text);
      logLines.length = 0;
      const index = await c.admin.get(`${B}/index`);
      expect(index.status).toBe(404);
      expect(index.body.code).toBe('agent_build_missing');
      const one = await download('linux-x64', c.adminToken);
      expect(one.statusCode).toBe(404);
      expect(logLines.join('')).toContain('manifest is not valid');
    },
  );

  it('a platform outside the list is 400 with a field error', async () => {
    await writeRelease();
    for (const platform of ['mac-arm64', 'linux-x64.exe', '..%2Fmanifest.json']) {
      const res = await c.admin.get(`${B}/${platform}`);
      expect(res.status, platform).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.errors).toEqual([{ field: 'platform', message: 'Invalid value' }]);
    }
  });
});
