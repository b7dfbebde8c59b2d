import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

const B = '/api/rota/vm/api/v1';
const AGENTS = '/api/rota/node/api/v1';
let t: TestApp;
let c: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
});
afterAll(() => t.close());

const vm = (name: string, extra: object = {}) => ({ name, hostname: `${name}.lan`, ...extra });

describe('VMs', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(
      `${B}/create`,
      vm('Desk 01', { label: 'Finance', os: 'Windows 11', description: 'Second floor' }),
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Desk 01',
      hostname: 'Desk 01.lan',
      label: 'Finance',
      os: 'Windows 11',
      description: 'Second floor',
      connectivity: 'inactive',
      agents: 0,
    });
    const id = created.body.data.rota_vms_id;

    const shown = await c.admin.post(`${B}/show`, { id });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);

    const updated = await c.admin.put(`${B}/update`, { id, hostname: 'desk-01', label: '' });
    expect(updated.status).toBe(204);
    const after = (await c.admin.post(`${B}/show`, { id })).body.data;
    expect(after).toMatchObject({
      name: 'Desk 01',
      hostname: 'desk-01',
      label: null,
      os: 'Windows 11',
      description: 'Second floor',
    });

    const listed = await c.admin.post(`${B}/index`, { search: 'desk-01' });
    expect(listed.body.data.map((v: { rota_vms_id: number }) => v.rota_vms_id)).toEqual([id]);

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('paginates, searches and sorts', async () => {
    for (let i = 1; i <= 23; i++) {
      await createVm(c.admin, `Rack ${String(i).padStart(2, '0')}`);
    }
    const page = await c.admin.post(`${B}/index`, { search: 'rack', page: 3, per_page: 10 });
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ total: 23, current_page: 3, per_page: 10 });
    expect(page.body.data.map((v: { name: string }) => v.name)).toEqual([
      'Rack 21',
      'Rack 22',
      'Rack 23',
    ]);
    const desc = await c.admin.post(`${B}/index`, {
      search: 'rack',
      sort: 'name',
      order: 'desc',
      per_page: 2,
    });
    expect(desc.body.data.map((v: { name: string }) => v.name)).toEqual(['Rack 23', 'Rack 22']);
    const defaults = await c.admin.post(`${B}/index`, {});
    expect(defaults.body.meta).toMatchObject({ current_page: 1, per_page: 20 });
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, { name: ' ' });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'name', message: 'Required name' },
      { field: 'hostname', message: 'Required hostname' },
    ]);
    const tooLong = await c.admin.post(
      `${B}/create`,
      vm('x'.repeat(121), { label: 'l'.repeat(121), os: 'o'.repeat(61) }),
    );
    expect(tooLong.body.errors).toEqual([
      { field: 'name', message: 'Too long' },
      { field: 'label', message: 'Too long' },
      { field: 'os', message: 'Too long' },
    ]);
    const filter = await c.admin.post(`${B}/index`, { connectivity: 'sleepy' });
    expect(filter.status).toBe(400);
    expect(filter.body.errors).toEqual([{ field: 'connectivity', message: 'Invalid value' }]);

    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.post(`${B}/create`, {});
    expect(inPt.body.errors).toEqual([
      { field: 'name', message: 'Nome obrigatório' },
      { field: 'hostname', message: 'Hostname obrigatório' },
    ]);
  });

  it('refuses a duplicate name in the client with 409, but not in another client', async () => {
    const first = await createVm(c.admin, 'Unique VM');
    const dup = await c.admin.post(`${B}/create`, vm('UNIQUE vm'));
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A VM with this name already exists' },
    ]);
    const second = await createVm(c.admin, 'Another VM');
    const renamed = await c.admin.put(`${B}/update`, { id: second, name: 'unique VM' });
    expect(renamed.status).toBe(409);
    expect((await c.admin.post(`${B}/show`, { id: first })).body.data.name).toBe('Unique VM');
    expect((await c.other.post(`${B}/create`, vm('Unique VM'))).status).toBe(201);
  });

  it('needs AGENTES permissions: list alone can read and count but not write', async () => {
    const id = await createVm(c.admin, 'Guarded VM');
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${B}/count`)).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, vm('Nope'))).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, name: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);

    const none = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
    expect((await none.limited.post(`${B}/index`, {})).status).toBe(403);
    expect((await none.limited.post(`${B}/count`)).status).toBe(403);
  });

  it('answers 404 for another client’s VM on every call and keeps it out of its list', async () => {
    const mine = await createVm(c.admin, 'Private VM');
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, name: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'Private VM' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.admin.post(`${B}/show`, { id: mine })).body.data.name).toBe('Private VM');
  });

  it('counts VMs by connectivity: active while one of its agents was seen in the last 30 s', async () => {
    const fresh = await setUpTenants(t);
    const as = fresh.other;
    expect((await as.post(`${B}/count`)).body).toEqual({ total: 0, active: 0, inactive: 0 });

    const live = await createVm(as, 'Live');
    const stale = await createVm(as, 'Stale');
    const empty = await createVm(as, 'Empty');
    await setLastSeen(t.db, (await createAgent(as, 'live-agent', live)).rota_nodes_id, 0);
    await setLastSeen(t.db, (await createAgent(as, 'stale-agent', stale)).rota_nodes_id, 31);
    await createAgent(as, 'never-seen', stale);
    // Another client's fresh agent does not make this client's VMs active.
    const foreignVm = await createVm(c.admin, 'Foreign live');
    await setLastSeen(
      t.db,
      (await createAgent(c.admin, 'foreign-agent', foreignVm)).rota_nodes_id,
      0,
    );

    const counted = await as.post(`${B}/count`, {});
    expect(counted.status).toBe(200);
    expect(counted.body).toEqual({ total: 3, active: 1, inactive: 2 });

    const all = (await as.post(`${B}/index`, {})).body.data;
    expect(
      all.map((v: { name: string; connectivity: string; agents: number }) => [
        v.name,
        v.connectivity,
        v.agents,
      ]),
    ).toEqual([
      ['Empty', 'inactive', 0],
      ['Live', 'active', 1],
      ['Stale', 'inactive', 2],
    ]);
    const active = await as.post(`${B}/index`, { connectivity: 'active' });
    expect(active.body.data.map((v: { rota_vms_id: number }) => v.rota_vms_id)).toEqual([live]);
    expect(active.body.meta.total).toBe(1);
    const inactive = await as.post(`${B}/index`, { connectivity: 'inactive' });
    expect(inactive.body.data.map((v: { rota_vms_id: number }) => v.rota_vms_id)).toEqual([
      empty,
      stale,
    ]);
    expect(inactive.body.meta.total).toBe(2);
    expect((await as.post(`${B}/show`, { id: live })).body.data.connectivity).toBe('active');
  });

  it('refuses to delete a VM that still has agents', async () => {
    const id = await createVm(c.admin, 'Busy VM');
    const { rota_nodes_id: agent } = await createAgent(c.admin, 'busy-agent', id);
    const refused = await c.admin.post(`${B}/delete`, { id });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'id', message: 'The VM has agents; move or delete them first' },
    ]);
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.admin.post(`${AGENTS}/delete`, { id: agent })).status).toBe(202);
    expect((await c.admin.post(`${B}/delete`, { id })).status).toBe(202);
  });
});
