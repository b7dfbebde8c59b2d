import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@rota/contract';
import {
  AUTH,
  PROFILES,
  USERS,
  auditOf,
  clientWithAdmin,
  createUserVia,
  userBody,
} from './helpers/administration.js';
import { createUser } from './helpers/fixtures.js';
import { client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;
let acme: Awaited<ReturnType<typeof clientWithAdmin>>;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  acme = await clientWithAdmin(t);
});
afterAll(() => t.close());

async function createProfile(name: string, permissions: string[] = []) {
  const res = await c.admin.post(`${PROFILES}/create`, { name, permissions });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { profiles_id: number; name: string };
}

describe('profiles', () => {
  it('round-trips create, show, update, list and delete', async () => {
    const created = await c.admin.post(`${PROFILES}/create`, {
      name: 'Operators',
      permissions: ['ROBOS.LIST', 'ATIVIDADES.LIST', 'ROBOS.LIST'],
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      rota_clients_id: c.defaultClientId,
      name: 'Operators',
      permissions: ['ROBOS.LIST', 'ATIVIDADES.LIST'],
      users: 0,
    });
    const id = created.body.data.profiles_id;
    expect((await c.admin.post(`${PROFILES}/show`, { id })).body.data).toEqual(created.body.data);

    const updated = await c.admin.put(`${PROFILES}/update`, {
      id,
      name: 'Robot operators',
      permissions: ['ROBOS.LIST', 'ROBOS.UPDATE'],
    });
    expect(updated.status).toBe(204);
    expect((await c.admin.post(`${PROFILES}/show`, { id })).body.data).toMatchObject({
      name: 'Robot operators',
      permissions: ['ROBOS.LIST', 'ROBOS.UPDATE'],
    });
    const renamedOnly = await c.admin.put(`${PROFILES}/update`, { id, name: 'Robot people' });
    expect(renamedOnly.status).toBe(204);
    expect((await c.admin.post(`${PROFILES}/show`, { id })).body.data.permissions).toEqual([
      'ROBOS.LIST',
      'ROBOS.UPDATE',
    ]);

    const listed = await c.admin.post(`${PROFILES}/index`, { search: 'robot people' });
    expect(listed.body.data.map((p: { profiles_id: number }) => p.profiles_id)).toEqual([id]);

    const removed = await c.admin.post(`${PROFILES}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${PROFILES}/show`, { id })).status).toBe(404);
  });

  it('paginates and sorts', async () => {
    for (let i = 1; i <= 7; i++) await createProfile(`Page ${i}`);
    const page = await c.admin.post(`${PROFILES}/index`, { search: 'page ', per_page: 3, page: 3 });
    expect(page.body.meta).toEqual({ total: 7, current_page: 3, per_page: 3 });
    expect(page.body.data.map((p: { name: string }) => p.name)).toEqual(['Page 7']);
    const desc = await c.admin.post(`${PROFILES}/index`, {
      search: 'page ',
      order: 'desc',
      per_page: 2,
    });
    expect(desc.body.data.map((p: { name: string }) => p.name)).toEqual(['Page 7', 'Page 6']);
  });

  it('counts the users holding each profile, in its own client only', async () => {
    const held = await createProfile('Held', ['ROBOS.LIST']);
    for (const access of ['held.one', 'held.two']) {
      await createUser(t.db, {
        access,
        password: 'held-password',
        memberships: [{ clientId: c.defaultClientId, profileId: held.profiles_id }],
      });
    }
    const shown = await c.admin.post(`${PROFILES}/show`, { id: held.profiles_id });
    expect(shown.body.data.users).toBe(2);
    // Acme's Administrator is held by Acme's administrator alone, whatever Default holds.
    const acmeProfiles = await acme.as.post(`${PROFILES}/index`, {});
    expect(acmeProfiles.body.data).toEqual([
      expect.objectContaining({ name: 'Administrator', users: 1, permissions: [...PERMISSIONS] }),
    ]);
  });

  it('says which fields are wrong, and refuses permissions outside the catalogue', async () => {
    const empty = await c.admin.post(`${PROFILES}/create`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ field: 'name', message: 'Required name' }]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect((await pt.post(`${PROFILES}/create`, { name: ' ' })).body.errors).toEqual([
      { field: 'name', message: 'Nome obrigatório' },
    ]);
    const unknown = await c.admin.post(`${PROFILES}/create`, {
      name: 'Bad',
      permissions: ['ROBOS.LIST', 'ROBOS.FLY'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'permissions.1', message: 'Invalid value' }]);
    const notList = await c.admin.post(`${PROFILES}/create`, { name: 'Bad', permissions: 'ALL' });
    expect(notList.body.errors).toEqual([{ field: 'permissions', message: 'Invalid value' }]);
    const profile = await createProfile('Valid');
    const badUpdate = await c.admin.put(`${PROFILES}/update`, {
      id: profile.profiles_id,
      permissions: ['USUARIOS.*'],
    });
    expect(badUpdate.status).toBe(400);
    expect(
      (await c.admin.post(`${PROFILES}/show`, { id: profile.profiles_id })).body.data.permissions,
    ).toEqual([]);
  });

  it('refuses a duplicate name in the client with 409, but not in another client', async () => {
    await createProfile('Auditors');
    const dup = await c.admin.post(`${PROFILES}/create`, { name: 'AUDITORS' });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'name', message: 'A profile with this name already exists' },
    ]);
    const second = await createProfile('Reviewers');
    const renamed = await c.admin.put(`${PROFILES}/update`, {
      id: second.profiles_id,
      name: 'auditors',
    });
    expect(renamed.status).toBe(409);
    expect((await acme.as.post(`${PROFILES}/create`, { name: 'Auditors' })).status).toBe(201);
  });

  it('keeps a profile someone holds (409) until they hold another', async () => {
    const used = await createProfile('In use', ['USUARIOS.LIST']);
    const spare = await createProfile('Spare');
    const user = await createUserVia(c.admin, userBody(c.defaultClientId, used.profiles_id));
    const refused = await c.admin.post(`${PROFILES}/delete`, { id: used.profiles_id });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'id', message: 'Users hold this profile; give them another one first' },
    ]);
    const ptRefused = await client(t.app, { token: c.adminToken, lang: 'pt' }).post(
      `${PROFILES}/delete`,
      { id: used.profiles_id },
    );
    expect(ptRefused.body.errors).toEqual([
      { field: 'id', message: 'Há usuários com este perfil; atribua outro a eles antes' },
    ]);
    await c.admin.put(`${USERS}/update`, {
      id: user.users_id,
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: spare.profiles_id }],
    });
    expect((await c.admin.post(`${PROFILES}/delete`, { id: used.profiles_id })).status).toBe(202);
  });

  it('applies a change of permissions at its holders’ next request', async () => {
    const profile = await createProfile('Switchable', ['ROBOS.LIST']);
    await createUser(t.db, {
      access: 'switchable',
      password: 'switch-password',
      memberships: [{ clientId: c.defaultClientId, profileId: profile.profiles_id }],
    });
    const as = client(t.app, { token: await signIn(t.app, 'switchable', 'switch-password') });
    expect((await as.post(`${PROFILES}/index`, {})).status).toBe(403);
    await c.admin.put(`${PROFILES}/update`, {
      id: profile.profiles_id,
      permissions: ['ROBOS.LIST', 'USUARIOS.LIST'],
    });
    expect((await as.post(`${PROFILES}/index`, {})).status).toBe(200);
    expect((await as.post(`${AUTH}/me`)).body.permissions).toEqual(['ROBOS.LIST', 'USUARIOS.LIST']);
    await c.admin.put(`${PROFILES}/update`, { id: profile.profiles_id, permissions: [] });
    expect((await as.post(`${PROFILES}/index`, {})).status).toBe(403);
  });

  it('needs USUARIOS permissions, and answers 404 for another client’s profiles', async () => {
    const mine = await createProfile('Private');
    expect((await c.limited.post(`${PROFILES}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${PROFILES}/show`, { id: mine.profiles_id })).status).toBe(200);
    expect((await c.limited.post(`${PROFILES}/create`, { name: 'Nope' })).status).toBe(403);
    expect(
      (await c.limited.put(`${PROFILES}/update`, { id: mine.profiles_id, name: 'x' })).status,
    ).toBe(403);
    expect((await c.limited.post(`${PROFILES}/delete`, { id: mine.profiles_id })).status).toBe(403);
    expect((await c.other.post(`${PROFILES}/index`, {})).status).toBe(403);

    expect((await acme.as.post(`${PROFILES}/show`, { id: mine.profiles_id })).status).toBe(404);
    expect(
      (await acme.as.put(`${PROFILES}/update`, { id: mine.profiles_id, name: 'Stolen' })).status,
    ).toBe(404);
    expect((await acme.as.post(`${PROFILES}/delete`, { id: mine.profiles_id })).status).toBe(404);
    const list = await acme.as.post(`${PROFILES}/index`, { search: 'Private' });
    expect(list.body.meta.total).toBe(0);
    expect((await c.admin.post(`${PROFILES}/show`, { id: mine.profiles_id })).body.data.name).toBe(
      'Private',
    );
  });

  it('records create, update and delete in the audit log', async () => {
    const profile = await createProfile('Audited', ['ROBOS.LIST']);
    await c.admin.put(`${PROFILES}/update`, { id: profile.profiles_id, permissions: [] });
    await c.admin.post(`${PROFILES}/delete`, { id: profile.profiles_id });
    const rows = await auditOf(t.db, 'profile', profile.profiles_id);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    expect(rows.every((r) => r.rota_clients_id === c.defaultClientId)).toBe(true);
    expect(rows[1]!.before).toMatchObject({ permissions: ['ROBOS.LIST'] });
    expect(rows[1]!.after).toMatchObject({ permissions: [] });
  });
});
