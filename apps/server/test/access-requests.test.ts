import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REQUESTS, AUTH, auditOf, clientWithAdmin } from './helpers/administration.js';
import { client, createTestApp, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;
let acme: Awaited<ReturnType<typeof clientWithAdmin>>;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST', 'USUARIOS.UPDATE'] });
  acme = await clientWithAdmin(t);
  const visitor = client(t.app, { ip: '10.0.0.9' });
  for (const [name, email] of [
    ['Paula Dias', 'paula@example.com'],
    ['Rui Costa', 'rui@example.com'],
    ['Sara Melo', 'sara@example.com'],
  ]) {
    const res = await visitor.post(`${AUTH}/request-access`, {
      name,
      email,
      client_name: 'Contoso',
      message: `Please let ${name} in`,
    });
    expect(res.status).toBe(200);
  }
});
afterAll(() => t.close());

type Row = { access_requests_id: number; name: string; status: string };
const byName = (rows: Row[], name: string) => rows.find((r) => r.name === name)!;

describe('access requests', () => {
  it('lists the requests newest first for platform administrators', async () => {
    const res = await c.admin.post(`${ACCESS_REQUESTS}/index`, {});
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 3, current_page: 1, per_page: 20 });
    expect(res.body.data.map((r: Row) => r.name)).toEqual(['Sara Melo', 'Rui Costa', 'Paula Dias']);
    expect(res.body.data[2]).toMatchObject({
      name: 'Paula Dias',
      email: 'paula@example.com',
      client_name: 'Contoso',
      message: 'Please let Paula Dias in',
      status: 'pending',
      ip: '10.0.0.9',
    });
    const searched = await c.admin.post(`${ACCESS_REQUESTS}/index`, { search: 'rui@' });
    expect(searched.body.data.map((r: Row) => r.name)).toEqual(['Rui Costa']);
    const paged = await c.admin.post(`${ACCESS_REQUESTS}/index`, {
      sort: 'name',
      order: 'asc',
      per_page: 2,
      page: 2,
    });
    expect(paged.body.data.map((r: Row) => r.name)).toEqual(['Sara Melo']);
  });

  it('dismisses one, marks another approved, filters by status, and reopens', async () => {
    const all = (await c.admin.post(`${ACCESS_REQUESTS}/index`, {})).body.data as Row[];
    const paula = byName(all, 'Paula Dias').access_requests_id;
    const rui = byName(all, 'Rui Costa').access_requests_id;
    expect(
      (await c.admin.put(`${ACCESS_REQUESTS}/update`, { id: paula, status: 'dismissed' })).status,
    ).toBe(204);
    expect(
      (await c.admin.put(`${ACCESS_REQUESTS}/update`, { id: rui, status: 'approved' })).status,
    ).toBe(204);

    const statuses = async (status: string) =>
      (await c.admin.post(`${ACCESS_REQUESTS}/index`, { status })).body.data.map(
        (r: Row) => r.name,
      );
    expect(await statuses('pending')).toEqual(['Sara Melo']);
    expect(await statuses('dismissed')).toEqual(['Paula Dias']);
    expect(await statuses('approved')).toEqual(['Rui Costa']);
    expect((await c.admin.post(`${ACCESS_REQUESTS}/show`, { id: rui })).body.data.status).toBe(
      'approved',
    );

    const [audit] = await auditOf(t.db, 'access_request', paula);
    expect(audit).toMatchObject({ action: 'update', rota_clients_id: c.defaultClientId });
    expect(audit!.before).toMatchObject({ status: 'pending' });
    expect(audit!.after).toMatchObject({ status: 'dismissed' });

    await c.admin.put(`${ACCESS_REQUESTS}/update`, { id: paula, status: 'pending' });
    expect(await statuses('pending')).toEqual(['Sara Melo', 'Paula Dias']);
  });

  it('says which fields are wrong, and 404 for an unknown request', async () => {
    const bad = await c.admin.put(`${ACCESS_REQUESTS}/update`, { id: 1, status: 'lost' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'status', message: 'Invalid value' }]);
    const filter = await c.admin.post(`${ACCESS_REQUESTS}/index`, { status: 'maybe' });
    expect(filter.body.errors).toEqual([{ field: 'status', message: 'Invalid value' }]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect((await pt.put(`${ACCESS_REQUESTS}/update`, { id: 1 })).body.errors).toEqual([
      { field: 'status', message: 'Valor inválido' },
    ]);
    expect(
      (await c.admin.put(`${ACCESS_REQUESTS}/update`, { id: 999_999, status: 'approved' })).status,
    ).toBe(404);
    expect((await c.admin.post(`${ACCESS_REQUESTS}/show`, { id: 999_999 })).status).toBe(404);
  });

  it('is for platform administrators only', async () => {
    const [first] = (await c.admin.post(`${ACCESS_REQUESTS}/index`, {})).body.data as Row[];
    for (const as of [acme.as, c.limited, c.other]) {
      expect((await as.post(`${ACCESS_REQUESTS}/index`, {})).status).toBe(403);
      expect(
        (await as.post(`${ACCESS_REQUESTS}/show`, { id: first!.access_requests_id })).status,
      ).toBe(403);
      expect(
        (
          await as.put(`${ACCESS_REQUESTS}/update`, {
            id: first!.access_requests_id,
            status: 'dismissed',
          })
        ).status,
      ).toBe(403);
    }
    expect((await client(t.app).post(`${ACCESS_REQUESTS}/index`, {})).status).toBe(401);
    expect(
      (await c.admin.post(`${ACCESS_REQUESTS}/show`, { id: first!.access_requests_id })).body.data
        .status,
    ).toBe(first!.status);
  });
});
