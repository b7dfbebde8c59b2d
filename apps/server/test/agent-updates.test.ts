import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT } from './helpers/engine.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm } from './helpers/vms.js';

const B = '/api/rota/node/api/v1';
const LINUX = Buffer.from(`\x7fELF${'newer agent '.repeat(200)}`);
const SHA = createHash('sha256').update(LINUX).digest('hex');
let t: TestApp;
let c: Tenants;
let release: string;
let vm: number;

const HELLO = {
  hostname: 'robot-01',
  version: '3.1.0',
  os: 'linux 6.1.0-18-amd64',
  arch: 'x64',
  packaged: true,
} as const;

beforeAll(async () => {
  release = await mkdtemp(path.join(os.tmpdir(), 'rota-agent-updates-'));
  await writeFile(path.join(release, 'rota-agent-linux-x64'), LINUX);
  await writeFile(
    path.join(release, 'manifest.json'),
    JSON.stringify({
      version: '3.2.0',
      files: { 'linux-x64': { file: 'rota-agent-linux-x64', sha256: SHA, bytes: LINUX.length } },
    }),
  );
  t = await createTestApp({ agentReleaseDir: release });
  c = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
  vm = await createVm(c.admin, 'Updates VM');
});
afterAll(async () => {
  await t.close();
  await rm(release, { recursive: true, force: true });
});

async function agentSaying(name: string, hello: Record<string, unknown> = HELLO, vmId = vm) {
  const { rota_nodes_id, token } = await createAgent(c.admin, name, vmId);
  const agent = client(t.app, { token });
  const res = await agent.post(`${AGENT}/hello`, hello);
  expect(res.status).toBe(200);
  return { id: rota_nodes_id, agent, token, hello: res.body.data };
}

const show = async (id: number) => (await c.admin.post(`${B}/show`, { id })).body.data;
const heartbeat = async (agent: ReturnType<typeof client>) =>
  (await agent.post(`${AGENT}/heartbeat`, { running: [] })).body.data;
const OFFER = { version: '3.2.0', platform: 'linux-x64', sha256: SHA, bytes: LINUX.length };

describe('agent updates', () => {
  it('are available to packaged agents of the same major that are older, never to a checkout', async () => {
    const older = await agentSaying('Upd older');
    const source = await agentSaying('Upd source', { ...HELLO, packaged: undefined });
    const major = await agentSaying('Upd major', { ...HELLO, version: '2.9.0' });
    const current = await agentSaying('Upd current', { ...HELLO, version: '3.2.0' });
    expect(await show(older.id)).toMatchObject({ update_available: true, update_requested: false });
    for (const a of [source, major, current]) {
      expect(await show(a.id)).toMatchObject({ update_available: false, update_requested: false });
    }
    // Not asked, no automatic updates: nothing offered.
    expect(older.hello.update).toBeUndefined();
    expect((await heartbeat(older.agent)).update).toBeUndefined();
  });

  it('one agent asked: offered in hello, heartbeat and an empty claim, until it says the new version', async () => {
    const a = await agentSaying('Upd asked');
    const skipped = await agentSaying('Upd asked source', { ...HELLO, packaged: false });
    const res = await c.admin.post(`${B}/update`, { ids: [a.id, skipped.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ requested: 1 });
    expect(res.body.message).toBe('1 agent(s) will update between runs');
    expect(await show(a.id)).toMatchObject({ update_available: true, update_requested: true });
    expect((await heartbeat(a.agent)).update).toEqual(OFFER);
    const claim = await a.agent.post(`${AGENT}/claim`, { wait_seconds: 0 });
    expect(claim.body).toEqual({ data: null, update: OFFER });
    expect((await a.agent.post(`${AGENT}/hello`, HELLO)).body.data.update).toEqual(OFFER);
    expect((await heartbeat(skipped.agent)).update).toBeUndefined();

    const updated = await a.agent.post(`${AGENT}/hello`, { ...HELLO, version: '3.2.0' });
    expect(updated.body.data.update).toBeUndefined();
    expect(await show(a.id)).toMatchObject({
      version: '3.2.0',
      update_available: false,
      update_requested: false,
    });
    expect((await heartbeat(a.agent)).update).toBeUndefined();
  });

  it('a VM’s agents, or all of the client’s, are asked at once', async () => {
    const other = await createVm(c.admin, 'Updates VM 2');
    const a = await agentSaying('Upd vm a', HELLO, other);
    const b = await agentSaying('Upd vm b', HELLO, other);
    const res = await c.admin.post(`${B}/update`, { rota_vms_id: other });
    expect(res.body.data).toEqual({ requested: 2 });
    expect((await heartbeat(a.agent)).update).toEqual(OFFER);
    expect((await heartbeat(b.agent)).update).toEqual(OFFER);
    const all = await c.admin.post(`${B}/update`, { all: true });
    expect(all.status).toBe(200);
    expect(all.body.data.requested).toBeGreaterThanOrEqual(2);
  });

  it('automatic updates offer every agent an update is available for, and can be turned off', async () => {
    const a = await agentSaying('Upd auto');
    expect((await c.admin.post(`${B}/auto_update/show`, {})).body.data).toEqual({
      enabled: false,
      shipped_version: '3.2.0',
    });
    const on = await c.admin.post(`${B}/auto_update`, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.data).toEqual({ enabled: true, shipped_version: '3.2.0' });
    expect((await heartbeat(a.agent)).update).toEqual(OFFER);
    expect((await c.limited.post(`${B}/auto_update/show`, {})).body.data.enabled).toBe(true);
    expect((await c.admin.post(`${B}/auto_update`, { enabled: false })).status).toBe(200);
    expect((await heartbeat(a.agent)).update).toBeUndefined();
    const audit = (await t.db.execute(
      sql`select entity from audit_logs where entity = 'agent_auto_update'`,
    )) as unknown as { rows: unknown[] };
    expect(audit.rows.length).toBeGreaterThanOrEqual(2);
  });

  it('needs AGENTES.UPDATE; another client’s agents and VMs answer as absent ones', async () => {
    const a = await agentSaying('Upd guarded');
    expect((await c.limited.post(`${B}/update`, { ids: [a.id] })).status).toBe(403);
    expect((await c.limited.post(`${B}/auto_update`, { enabled: true })).status).toBe(403);
    const foreign = await c.other.post(`${B}/update`, { ids: [a.id] });
    expect(foreign.status).toBe(404);
    const foreignVm = await c.other.post(`${B}/update`, { rota_vms_id: vm });
    expect(foreignVm.status).toBe(400);
    expect(foreignVm.body.errors).toEqual([
      { field: 'rota_vms_id', message: 'This VM does not exist' },
    ]);
    // Asked for nothing of theirs: still not asked.
    expect(await show(a.id)).toMatchObject({ update_requested: false });
  });

  it('a body naming none or several targets is 400, in English and Portuguese', async () => {
    for (const body of [{}, { ids: [1], all: true }, { all: false }, { ids: [] }]) {
      const res = await c.admin.post(`${B}/update`, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
    const en = await c.admin.post(`${B}/update`, {});
    expect(en.body.errors).toContainEqual({
      field: 'ids',
      message: 'Name the agents, a VM or all agents: exactly one of them',
    });
    const pt = await client(t.app, { token: c.adminToken, lang: 'pt' }).post(`${B}/update`, {});
    expect(pt.body.errors).toContainEqual({
      field: 'ids',
      message: 'Indique os agentes, uma VM ou todos os agentes: exatamente um deles',
    });
    const bad = await c.admin.post(`${B}/auto_update`, { enabled: 'yes' });
    expect(bad.status).toBe(400);
  });

  it('the offered executable is served to an agent token, with its SHA-256', async () => {
    const a = await agentSaying('Upd download');
    const res = await t.app.inject({
      method: 'GET',
      url: `${AGENT}/update/linux-x64`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-rota-sha256']).toBe(SHA);
    expect(res.rawPayload.equals(LINUX)).toBe(true);
    const anonymous = await t.app.inject({ method: 'GET', url: `${AGENT}/update/linux-x64` });
    expect(anonymous.statusCode).toBe(401);
    const missing = await t.app.inject({
      method: 'GET',
      url: `${AGENT}/update/win-x64`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(missing.statusCode).toBe(404);
  });
});
