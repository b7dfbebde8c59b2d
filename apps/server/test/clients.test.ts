import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@rota/contract';
import { rotaStatusItems } from '../src/db/schema/index.js';
import {
  AUTH,
  CLIENTS,
  PROFILES,
  USERS,
  auditOf,
  clientWithAdmin,
} from './helpers/administration.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;
let acme: Awaited<ReturnType<typeof clientWithAdmin>>;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  acme = await clientWithAdmin(t);
  adminId = (await c.admin.post(`${AUTH}/me`)).body.users_id;
});
afterAll(() => t.close());

describe('clients', () => {
  it('creates a client set up like every client, its creator a member with its Administrator profile', async () => {
    const created = await c.admin.post(`${CLIENTS}/create`, { name: 'Northwind' });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({ name: 'Northwind', users: 1 });
    const id: number = created.body.data.rota_clients_id;
    expect(id).toBeGreaterThan(0);
    expect((await c.admin.post(`${CLIENTS}/show`, { id })).body.data).toEqual(created.body.data);

    const items = await t.db
      .select()
      .from(rotaStatusItems)
      .where(eq(rotaStatusItems.rota_clients_id, id));
    expect(items.map((i) => i.status).sort()).toEqual(
      [
        'application_error',
        'business_error',
        'cancelled',
        'processing',
        'queued',
        'success',
        'timeout',
      ].sort(),
    );

    // The creator sees it among their clients and can select it at once.
    const me = await c.admin.post(`${AUTH}/me`);
    expect(me.body.clients).toContainEqual({ rota_clients_id: id, name: 'Northwind' });
    const select = await c.admin.put(`${USERS}/client_select`, {
      users_id: adminId,
      rota_clients_id_selected: id,
    });
    expect(select.status).toBe(204);
    try {
      const profiles = await c.admin.post(`${PROFILES}/index`, {});
      expect(profiles.body.data).toEqual([
        expect.objectContaining({
          rota_clients_id: id,
          name: 'Administrator',
          permissions: [...PERMISSIONS],
          users: 1,
        }),
      ]);
      const users = await c.admin.post(`${USERS}/index`, {});
      expect(users.body.data.map((u: { users_id: number }) => u.users_id)).toEqual([adminId]);
    } finally {
      await c.admin.put(`${USERS}/client_select`, {
        users_id: adminId,
        rota_clients_id_selected: c.defaultClientId,
      });
    }

    const [audit] = await auditOf(t.db, 'client', id);
    expect(audit).toMatchObject({ action: 'create', users_id: adminId, rota_clients_id: id });
    expect(audit!.after).toMatchObject({ name: 'Northwind' });
  });

  it('renames, refuses duplicate names (409) and lists every client with its users', async () => {
    const first = (await c.admin.post(`${CLIENTS}/create`, { name: 'Contoso' })).body.data;
    const second = (await c.admin.post(`${CLIENTS}/create`, { name: 'Fabrikam' })).body.data;
    const dup = await c.admin.post(`${CLIENTS}/create`, { name: 'CONTOSO' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A client with this name already exists' },
    ]);
    const clash = await c.admin.put(`${CLIENTS}/update`, {
      id: second.rota_clients_id,
      name: 'contoso',
    });
    expect(clash.status).toBe(409);

    const renamed = await c.admin.put(`${CLIENTS}/update`, {
      id: first.rota_clients_id,
      name: 'Contoso Ltd',
    });
    expect(renamed.status).toBe(204);
    expect(
      (await c.admin.post(`${CLIENTS}/show`, { id: first.rota_clients_id })).body.data.name,
    ).toBe('Contoso Ltd');
    const [audit] = await auditOf(t.db, 'client', first.rota_clients_id);
    expect(audit).toMatchObject({ action: 'update' });
    expect(audit!.before).toMatchObject({ name: 'Contoso' });
    expect(audit!.after).toMatchObject({ name: 'Contoso Ltd' });

    const all = await c.admin.post(`${CLIENTS}/index`, { per_page: 100 });
    expect(all.status).toBe(200);
    const names = all.body.data.map((x: { name: string }) => x.name);
    expect(names).toEqual(
      expect.arrayContaining(['Default', 'Contoso Ltd', 'Fabrikam', acme.name]),
    );
    expect(all.body.data.find((x: { name: string }) => x.name === acme.name).users).toBe(1);
    const page = await c.admin.post(`${CLIENTS}/index`, {
      search: 'o',
      per_page: 1,
      page: 2,
      sort: 'name',
    });
    expect(page.body.meta).toMatchObject({ current_page: 2, per_page: 1 });
    expect(page.body.data).toHaveLength(1);

    expect((await c.admin.post(`${CLIENTS}/show`, { id: 999_999 })).status).toBe(404);
    expect((await c.admin.put(`${CLIENTS}/update`, { id: 999_999, name: 'Ghost' })).status).toBe(
      404,
    );
  });

  it('says which fields are wrong', async () => {
    const empty = await c.admin.post(`${CLIENTS}/create`, { name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'name', message: 'Required name' }]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect((await pt.post(`${CLIENTS}/create`, {})).body.errors).toEqual([
      { field: 'name', message: 'Nome obrigatório' },
    ]);
    expect(
      (await c.admin.post(`${CLIENTS}/create`, { name: 'x'.repeat(121) })).body.errors,
    ).toEqual([{ field: 'name', message: 'Too long' }]);
  });

  it('is for platform administrators only: 403 for everyone else, even a client’s administrator', async () => {
    for (const as of [acme.as, c.limited, c.other]) {
      expect((await as.post(`${CLIENTS}/index`, {})).status).toBe(403);
      expect((await as.post(`${CLIENTS}/show`, { id: acme.clientId })).status).toBe(403);
      expect((await as.post(`${CLIENTS}/create`, { name: `Mine ${Math.random()}` })).status).toBe(
        403,
      );
      expect(
        (await as.put(`${CLIENTS}/update`, { id: acme.clientId, name: 'Renamed' })).status,
      ).toBe(403);
    }
    expect((await c.admin.post(`${CLIENTS}/show`, { id: acme.clientId })).body.data.name).toBe(
      acme.name,
    );
    // Clients are not deleted.
    expect((await c.admin.post(`${CLIENTS}/delete`, { id: acme.clientId })).status).toBe(404);
  });
});
