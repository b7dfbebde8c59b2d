import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LOW_DISK_BYTES } from '@rota/contract';
import { AGENT } from './helpers/engine.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm } from './helpers/vms.js';

const B = '/api/rota/node/api/v1';
let t: TestApp;
let c: Tenants;
let vm: number;

const FACTS = {
  hostname: 'robot-01.lan',
  version: '3.1.0',
  os: 'linux 6.1.0-18-amd64',
  os_version: 'Debian GNU/Linux 12 (bookworm)',
  arch: 'x64',
  cpus: 8,
  memory_bytes: 16 * 1024 ** 3,
  free_disk_bytes: 40 * 1024 ** 3,
  mode: 'service',
} as const;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
  vm = await createVm(c.admin, 'Facts VM');
});
afterAll(() => t.close());

async function newAgent(name: string) {
  const { rota_nodes_id, token } = await createAgent(c.admin, name, vm);
  return { id: rota_nodes_id, agent: client(t.app, { token }) };
}

const show = async (id: number) => {
  const res = await c.limited.post(`${B}/show`, { id });
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('agent facts', () => {
  it('are null before any hello, and not low on disk', async () => {
    const { id } = await newAgent('Facts never');
    expect(await show(id)).toMatchObject({ facts: null, low_disk: false, hostname: null });
  });

  it('a hello with facts is answered by show and index, beside hostname and version', async () => {
    const { id, agent } = await newAgent('Facts full');
    expect((await agent.post(`${AGENT}/hello`, FACTS)).status).toBe(200);
    const facts = {
      os: FACTS.os,
      os_version: FACTS.os_version,
      arch: 'x64',
      hostname: FACTS.hostname,
      cpus: 8,
      memory_bytes: FACTS.memory_bytes,
      free_disk_bytes: FACTS.free_disk_bytes,
      agent_version: '3.1.0',
      mode: 'service',
    };
    expect(await show(id)).toMatchObject({
      hostname: FACTS.hostname,
      version: '3.1.0',
      facts,
      low_disk: false,
    });
    const list = await c.limited.post(`${B}/index`, { search: 'Facts full' });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ facts, low_disk: false })]);
  });

  it('low_disk flips at 1 GiB free, with the next hello (after an outage too)', async () => {
    const { id, agent } = await newAgent('Facts disk');
    const hello = (free: number) =>
      agent.post(`${AGENT}/hello`, { ...FACTS, free_disk_bytes: free });
    expect((await hello(AGENT_LOW_DISK_BYTES)).status).toBe(200);
    expect((await show(id)).low_disk).toBe(false);
    expect((await hello(AGENT_LOW_DISK_BYTES - 1)).status).toBe(200);
    expect(await show(id)).toMatchObject({
      low_disk: true,
      facts: { free_disk_bytes: AGENT_LOW_DISK_BYTES - 1 },
    });
    expect((await hello(AGENT_LOW_DISK_BYTES + 1)).status).toBe(200);
    expect((await show(id)).low_disk).toBe(false);
  });

  it('an older agent’s hello without facts is still welcome; its facts are null fields', async () => {
    const { id, agent } = await newAgent('Facts old');
    // First a newer agent on the same token, then the older one replacing it.
    expect((await agent.post(`${AGENT}/hello`, FACTS)).status).toBe(200);
    const old = await agent.post(`${AGENT}/hello`, {
      hostname: 'old.lan',
      version: '3.0.0',
      os: 'win32 10.0.19045',
    });
    expect(old.status).toBe(200);
    expect(await show(id)).toMatchObject({
      hostname: 'old.lan',
      version: '3.0.0',
      low_disk: false,
      facts: {
        os: 'win32 10.0.19045',
        os_version: null,
        arch: null,
        hostname: 'old.lan',
        cpus: null,
        memory_bytes: null,
        free_disk_bytes: null,
        agent_version: '3.0.0',
        mode: null,
      },
    });
  });

  it('refuses facts of the wrong shape, field by field', async () => {
    const { agent } = await newAgent('Facts bad');
    const res = await agent.post(`${AGENT}/hello`, { ...FACTS, mode: 'daemon', cpus: -1 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cpus', 'mode']);
  });
});
