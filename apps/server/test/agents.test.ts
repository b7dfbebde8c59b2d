import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotaNodes } from '../src/db/schema/index.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';
import { createAgent, createVm, setLastSeen } from './helpers/vms.js';

const B = '/api/rota/node/api/v1';
const VMS = '/api/rota/vm/api/v1';
let t: TestApp;
let c: Tenants;
let vmA: number;
let vmB: number;
let foreignVm: number;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function storedRow(id: number) {
  const [row] = await t.db.select().from(rotaNodes).where(eq(rotaNodes.rota_nodes_id, id));
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['AGENTES.LIST'] });
  vmA = await createVm(c.admin, 'VM A');
  vmB = await createVm(c.admin, 'VM B');
  foreignVm = await createVm(c.other, 'Foreign VM');
});
afterAll(() => t.close());

describe('agents', () => {
  it('round-trips create, show, update, list and delete with the generic answers', async () => {
    const created = await c.admin.post(`${B}/create`, { name: 'Runner 1', rota_vms_id: vmA });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Runner 1',
      rota_vms_id: vmA,
      rota_vms_name: 'VM A',
      connectivity: 'inactive',
      last_seen_at: null,
      version: null,
      hostname: null,
    });
    const id = created.body.data.rota_nodes_id;

    const shown = await c.admin.post(`${B}/show`, { id });
    expect(shown.status).toBe(200);
    const { token: _token, ...withoutToken } = created.body.data;
    expect(shown.body.data).toEqual(withoutToken);

    const moved = await c.admin.put(`${B}/update`, { id, name: 'Runner one', rota_vms_id: vmB });
    expect(moved.status).toBe(204);
    expect((await c.admin.post(`${B}/show`, { id })).body.data).toMatchObject({
      name: 'Runner one',
      rota_vms_id: vmB,
      rota_vms_name: 'VM B',
    });

    const removed = await c.admin.post(`${B}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${B}/show`, { id })).status).toBe(404);
  });

  it('shows the token only in the create answer and stores only its SHA-256', async () => {
    const { rota_nodes_id: id, token } = await createAgent(c.admin, 'Secretive', vmA);
    expect(token).toMatch(/^[\w-]{40,}$/);

    const row = await storedRow(id);
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);

    const answers = [
      await c.admin.post(`${B}/show`, { id }),
      await c.admin.post(`${B}/index`, { search: 'Secretive' }),
      await c.admin.post(`${B}/index`, { rota_vms_id: vmA, per_page: 100 }),
      await c.admin.post(`${VMS}/show`, { id: vmA }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain(token);
      expect(text).not.toContain(row.token_hash);
      expect(text).not.toContain('token');
    }
  });

  it('rotates the token: the new one is answered once, the old one stops matching', async () => {
    const { rota_nodes_id: id, token: old } = await createAgent(c.admin, 'Rotated', vmA);
    const rotated = await c.admin.post(`${B}/rotate_token`, { id });
    expect(rotated.status).toBe(200);
    expect(rotated.body.message).toBe(
      'A new token was issued; the old one only finishes the runs its agent already started',
    );
    const fresh = rotated.body.data.token as string;
    expect(fresh).not.toBe(old);

    const row = await storedRow(id);
    expect(row.token_hash).toBe(sha256(fresh));
    expect(row.token_hash).not.toBe(sha256(old));
    const byOld = await t.db
      .select({ id: rotaNodes.rota_nodes_id })
      .from(rotaNodes)
      .where(eq(rotaNodes.token_hash, sha256(old)));
    expect(byOld).toEqual([]);
    const shown = JSON.stringify((await c.admin.post(`${B}/show`, { id })).body);
    expect(shown).not.toContain(fresh);

    expect((await c.other.post(`${B}/rotate_token`, { id })).status).toBe(404);
    expect((await c.admin.post(`${B}/rotate_token`, { id: 999999 })).status).toBe(404);
    expect((await storedRow(id)).token_hash).toBe(sha256(fresh));
  });

  it('paginates, searches and filters by VM and connectivity', async () => {
    const fresh = await setUpTenants(t);
    const as = fresh.other;
    const east = await createVm(as, 'East');
    const west = await createVm(as, 'West');
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++) {
      const vm = i % 3 === 0 ? west : east;
      ids.push((await createAgent(as, `Node ${String(i).padStart(2, '0')}`, vm)).rota_nodes_id);
    }
    const page = await as.post(`${B}/index`, { search: 'node', page: 2, per_page: 5 });
    expect(page.body.meta).toEqual({ total: 12, current_page: 2, per_page: 5 });
    expect(page.body.data.map((a: { name: string }) => a.name)).toEqual([
      'Node 06',
      'Node 07',
      'Node 08',
      'Node 09',
      'Node 10',
    ]);
    const onWest = await as.post(`${B}/index`, { rota_vms_id: west });
    expect(onWest.body.data.map((a: { name: string }) => a.name)).toEqual([
      'Node 03',
      'Node 06',
      'Node 09',
      'Node 12',
    ]);
    expect(onWest.body.data[0].rota_vms_name).toBe('West');

    await setLastSeen(t.db, ids[0]!, 0);
    await setLastSeen(t.db, ids[1]!, 31);
    const active = await as.post(`${B}/index`, { connectivity: 'active' });
    expect(active.body.meta.total).toBe(1);
    expect(active.body.data[0]).toMatchObject({ name: 'Node 01', connectivity: 'active' });
    expect(active.body.data[0].last_seen_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const inactive = await as.post(`${B}/index`, { connectivity: 'inactive', per_page: 100 });
    expect(inactive.body.meta.total).toBe(11);
    expect(inactive.body.data.map((a: { name: string }) => a.name)).toContain('Node 02');

    // Never-seen agents sort as the oldest heartbeat: last on "most recent first".
    const recent = await as.post(`${B}/index`, {
      sort: 'last_seen_at',
      order: 'desc',
      per_page: 3,
    });
    expect(recent.body.data.map((a: { name: string }) => a.name).slice(0, 2)).toEqual([
      'Node 01',
      'Node 02',
    ]);
  });

  it('says which fields are wrong, in the caller’s language', async () => {
    const en = await c.admin.post(`${B}/create`, {});
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'name', message: 'Required name' },
      { field: 'rota_vms_id', message: 'Required VM' },
    ]);
    const wrong = await c.admin.post(`${B}/create`, { name: 'n'.repeat(121), rota_vms_id: 1.5 });
    expect(wrong.body.errors).toEqual([
      { field: 'name', message: 'Too long' },
      { field: 'rota_vms_id', message: 'Invalid value' },
    ]);
    const filter = await c.admin.post(`${B}/index`, { connectivity: 'maybe' });
    expect(filter.body.errors).toEqual([{ field: 'connectivity', message: 'Invalid value' }]);

    const pt = client(t.app, {
      token: await signIn(t.app, ADMIN.access, ADMIN.password),
      lang: 'pt',
    });
    const inPt = await pt.post(`${B}/create`, { name: '' });
    expect(inPt.body.errors).toEqual([
      { field: 'name', message: 'Nome obrigatório' },
      { field: 'rota_vms_id', message: 'VM obrigatória' },
    ]);
    const unknown = await pt.post(`${B}/create`, { name: 'Lost', rota_vms_id: 999999 });
    expect(unknown.body.errors).toEqual([{ field: 'rota_vms_id', message: 'Esta VM não existe' }]);
  });

  it('refuses another client’s VM as if it did not exist, and writes nothing', async () => {
    const refused = await c.admin.post(`${B}/create`, {
      name: 'Trespasser',
      rota_vms_id: foreignVm,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'rota_vms_id', message: 'This VM does not exist' },
    ]);
    expect((await c.admin.post(`${B}/index`, { search: 'Trespasser' })).body.meta.total).toBe(0);

    const { rota_nodes_id: id } = await createAgent(c.admin, 'Stays home', vmA);
    const move = await c.admin.put(`${B}/update`, { id, rota_vms_id: foreignVm });
    expect(move.status).toBe(400);
    expect(move.body.errors).toEqual([{ field: 'rota_vms_id', message: 'This VM does not exist' }]);
    expect((await c.admin.post(`${B}/show`, { id })).body.data.rota_vms_id).toBe(vmA);
  });

  it('refuses a duplicate name in the client with 409, but not in another client', async () => {
    await createAgent(c.admin, 'Twin', vmA);
    const dup = await c.admin.post(`${B}/create`, { name: 'TWIN', rota_vms_id: vmB });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'An agent with this name already exists' },
    ]);
    const { rota_nodes_id: other } = await createAgent(c.admin, 'Not a twin', vmA);
    expect((await c.admin.put(`${B}/update`, { id: other, name: 'twin' })).status).toBe(409);
    expect(
      (await c.other.post(`${B}/create`, { name: 'Twin', rota_vms_id: foreignVm })).status,
    ).toBe(201);
  });

  it('needs AGENTES permissions: list alone can read but not write', async () => {
    const { rota_nodes_id: id } = await createAgent(c.admin, 'Guarded', vmA);
    expect((await c.limited.post(`${B}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${B}/show`, { id })).status).toBe(200);
    expect((await c.limited.post(`${B}/create`, { name: 'x', rota_vms_id: vmA })).status).toBe(403);
    expect((await c.limited.put(`${B}/update`, { id, name: 'x' })).status).toBe(403);
    expect((await c.limited.post(`${B}/rotate_token`, { id })).status).toBe(403);
    expect((await c.limited.post(`${B}/delete`, { id })).status).toBe(403);
  });

  it('answers 404 for another client’s agent on every call and keeps it out of its list', async () => {
    const { rota_nodes_id: mine } = await createAgent(c.admin, 'Private agent', vmA);
    expect((await c.other.post(`${B}/show`, { id: mine })).status).toBe(404);
    expect((await c.other.put(`${B}/update`, { id: mine, name: 'Stolen' })).status).toBe(404);
    expect((await c.other.post(`${B}/delete`, { id: mine })).status).toBe(404);
    const list = await c.other.post(`${B}/index`, { search: 'Private agent' });
    expect(list.body.meta.total).toBe(0);
    const byVm = await c.other.post(`${B}/index`, { rota_vms_id: vmA });
    expect(byVm.body.meta.total).toBe(0);
    expect((await c.admin.post(`${B}/show`, { id: mine })).body.data.name).toBe('Private agent');
  });
});
