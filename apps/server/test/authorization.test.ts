import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createProfile, createUser, findClient } from './helpers/fixtures.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

const PROFILES = '/api/user/profile/api/v1';

let t: TestApp;
let acmeProfileId: number;
let defaultClientId: number;
let acmeClientId: number;

beforeAll(async () => {
  t = await createTestApp();
  defaultClientId = (await findClient(t.db, 'Default')).rota_clients_id;
  const acme = await createClient(t.db, 'ACME');
  acmeClientId = acme.rota_clients_id;
  const acmeAdmins = await createProfile(t.db, acme.rota_clients_id, 'ACME admins', [
    'USUARIOS.LIST',
  ]);
  acmeProfileId = acmeAdmins.profiles_id;
  const robotsOnly = await createProfile(t.db, defaultClientId, 'Robots only', ['ROBOS.LIST']);
  const defaultAdmin = await findProfileId('Administrator', defaultClientId);
  await createUser(t.db, {
    access: 'viewer',
    password: 'viewer-password',
    memberships: [{ clientId: defaultClientId, profileId: robotsOnly.profiles_id }],
  });
  await createUser(t.db, {
    access: 'both',
    password: 'both-password',
    memberships: [
      { clientId: defaultClientId, profileId: defaultAdmin },
      { clientId: acme.rota_clients_id, profileId: acmeAdmins.profiles_id },
    ],
  });
  await createUser(t.db, { access: 'loner', password: 'loner-password', memberships: [] });
  for (let i = 1; i <= 25; i++)
    await createProfile(t.db, defaultClientId, `Extra ${String(i).padStart(2, '0')}`, []);
});
afterAll(() => t.close());

async function findProfileId(name: string, clientId: number) {
  const token = await signIn(t.app, ADMIN.access, ADMIN.password);
  const res = await client(t.app, { token }).post(`${PROFILES}/index`, { search: name });
  const found = res.body.data.find(
    (p: { name: string; rota_clients_id: number }) =>
      p.name === name && p.rota_clients_id === clientId,
  );
  return found.profiles_id as number;
}

describe('permission check on a sample route (profiles, USUARIOS.LIST)', () => {
  it('answers 401 without a session', async () => {
    const res = await client(t.app).post(`${PROFILES}/index`, {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('answers 403 to a user whose profile lacks the permission', async () => {
    const token = await signIn(t.app, 'viewer', 'viewer-password');
    const res = await client(t.app, { token, lang: 'pt' }).post(`${PROFILES}/index`, {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message: 'Você não tem autorização!' });
  });

  it('answers 403 to a user with no client at all', async () => {
    const token = await signIn(t.app, 'loner', 'loner-password');
    expect((await client(t.app, { token }).post(`${PROFILES}/index`, {})).status).toBe(403);
  });

  it('lists with pagination meta, search and sort, scoped to the selected client', async () => {
    const token = await signIn(t.app, ADMIN.access, ADMIN.password);
    const c = client(t.app, { token });
    const page2 = await c.post(`${PROFILES}/index`, { page: 2, per_page: 10 });
    expect(page2.status).toBe(200);
    expect(page2.body.meta).toEqual({ total: 27, current_page: 2, per_page: 10 });
    expect(page2.body.data).toHaveLength(10);
    expect(
      page2.body.data.every(
        (p: { rota_clients_id: number }) => p.rota_clients_id === defaultClientId,
      ),
    ).toBe(true);
    const search = await c.post(`${PROFILES}/index`, {
      search: 'extra 2',
      sort: 'name',
      order: 'desc',
    });
    expect(search.body.data.map((p: { name: string }) => p.name)).toEqual([
      'Extra 25',
      'Extra 24',
      'Extra 23',
      'Extra 22',
      'Extra 21',
      'Extra 20',
    ]);
    const wildcard = await c.post(`${PROFILES}/index`, { search: '%' });
    expect(wildcard.body.meta.total).toBe(0);
  });

  it('rejects a bad list body with field errors', async () => {
    const token = await signIn(t.app, ADMIN.access, ADMIN.password);
    const res = await client(t.app, { token }).post(`${PROFILES}/index`, {
      per_page: 1000,
      sort: 'password',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'per_page',
      'sort',
    ]);
  });
});

describe('tenant scope', () => {
  it('answers 404 for a row of another client, and shows it once that client is selected', async () => {
    const token = await signIn(t.app, 'both', 'both-password');
    const c = client(t.app, { token });
    const me = await c.post('/api/user/api/auth/v1/me');
    expect(me.body.clients.map((x: { name: string }) => x.name)).toEqual(['ACME', 'Default']);
    await c.put('/api/user/api/v1/client_select', {
      users_id: me.body.users_id,
      rota_clients_id_selected: defaultClientId,
    });
    const hidden = await c.post(`${PROFILES}/show`, { id: acmeProfileId });
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('not_found');

    const selected = await c.put('/api/user/api/v1/client_select', {
      users_id: me.body.users_id,
      rota_clients_id_selected: acmeClientId,
    });
    expect(selected.status).toBe(204);
    expect(selected.body).toBeUndefined();
    const shown = await c.post(`${PROFILES}/show`, { id: acmeProfileId });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ name: 'ACME admins', permissions: ['USUARIOS.LIST'] });
    const list = await c.post(`${PROFILES}/index`, {});
    expect(list.body.meta.total).toBe(1);
    expect((await c.post('/api/user/api/auth/v1/me')).body.permissions).toEqual(['USUARIOS.LIST']);
  });

  it('refuses to select a client the user does not belong to', async () => {
    const token = await signIn(t.app, 'viewer', 'viewer-password');
    const c = client(t.app, { token, lang: 'en' });
    const me = await c.post('/api/user/api/auth/v1/me');
    const res = await c.put('/api/user/api/v1/client_select', {
      users_id: me.body.users_id,
      rota_clients_id_selected: acmeClientId,
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('client_not_member');
    const other = await c.put('/api/user/api/v1/client_select', {
      users_id: me.body.users_id + 1,
      rota_clients_id_selected: defaultClientId,
    });
    expect(other.status).toBe(403);
    const bad = await c.put('/api/user/api/v1/client_select', { users_id: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'users_id',
      'rota_clients_id_selected',
    ]);
  });

  it('answers 404 for an id that does not exist and 400 for one that is not an id', async () => {
    const token = await signIn(t.app, ADMIN.access, ADMIN.password);
    const c = client(t.app, { token });
    expect((await c.post(`${PROFILES}/show`, { id: 999999 })).status).toBe(404);
    expect((await c.post(`${PROFILES}/show`, { id: -1 })).status).toBe(400);
    expect((await c.post(`${PROFILES}/show`, { id: 1e12 })).status).toBe(400);
  });
});
