import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  USERS,
  USER_CLIENTS,
  administratorProfileId,
  auditOf,
  clientWithAdmin,
} from './helpers/administration.js';
import { createProfile, createUser } from './helpers/fixtures.js';
import { client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;
let acme: Awaited<ReturnType<typeof clientWithAdmin>>;
let defaultAdmins: number;
let defaultReaders: number;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  acme = await clientWithAdmin(t);
  defaultAdmins = await administratorProfileId(t.db, c.defaultClientId);
  defaultReaders = (await createProfile(t.db, c.defaultClientId, 'Readers', ['USUARIOS.LIST']))
    .profiles_id;
});
afterAll(() => t.close());

/** A user of Acme only, signed in (their selected client is Acme). */
async function acmeUser(access: string) {
  const user = await createUser(t.db, {
    access,
    password: 'member-password',
    name: 'Bruno',
    last_name: 'Lima',
    memberships: [{ clientId: acme.clientId, profileId: acme.adminProfileId }],
  });
  const token = await signIn(t.app, access, 'member-password');
  return { usersId: user.users_id, as: client(t.app, { token }) };
}

describe('user clients', () => {
  it('adds an existing user of another client, changes their profile and takes them out', async () => {
    const bruno = await acmeUser('bruno');
    const created = await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: bruno.usersId,
      profiles_id: defaultReaders,
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      users_id: bruno.usersId,
      user_name: 'Bruno Lima',
      rota_clients_id: c.defaultClientId,
      profiles_id: defaultReaders,
      profile_name: 'Readers',
    });
    const id = created.body.data.user_clients_id;
    expect((await c.admin.post(`${USER_CLIENTS}/show`, { id })).body.data).toEqual(
      created.body.data,
    );

    // Bruno now has two clients and can switch to Default, where he may list users only.
    const me = await bruno.as.post(`${AUTH}/me`);
    expect(
      me.body.clients.map((x: { rota_clients_id: number }) => x.rota_clients_id).sort(),
    ).toEqual([acme.clientId, c.defaultClientId].sort());
    const select = await bruno.as.put(`${USERS}/client_select`, {
      users_id: bruno.usersId,
      rota_clients_id_selected: c.defaultClientId,
    });
    expect(select.status).toBe(204);
    expect((await bruno.as.post(`${USERS}/index`, {})).status).toBe(200);
    expect(
      (
        await bruno.as.post(`${USER_CLIENTS}/create`, {
          users_id: bruno.usersId,
          profiles_id: defaultAdmins,
        })
      ).status,
    ).toBe(403);
    expect(
      (await bruno.as.put(`${USERS}/update`, { id: bruno.usersId, name: 'Bruno' })).status,
    ).toBe(403);

    // A new profile applies at his next request.
    const nothing = await createProfile(t.db, c.defaultClientId, 'Nothing here', []);
    expect(
      (await c.admin.put(`${USER_CLIENTS}/update`, { id, profiles_id: nothing.profiles_id }))
        .status,
    ).toBe(204);
    expect((await bruno.as.post(`${USERS}/index`, {})).status).toBe(403);

    // Out of Default: his selection moves back to Acme at once.
    const removed = await c.admin.post(`${USER_CLIENTS}/delete`, { id });
    expect(removed.status).toBe(202);
    expect((await c.admin.post(`${USER_CLIENTS}/show`, { id })).status).toBe(404);
    const after = await bruno.as.post(`${AUTH}/me`);
    expect(after.body.rota_clients_id_selected).toBe(acme.clientId);
    expect((await bruno.as.post(`${USERS}/index`, {})).status).toBe(200);
  });

  it('lists the selected client’s memberships with search, filters and pages', async () => {
    const page = await c.admin.post(`${USER_CLIENTS}/index`, { per_page: 2, page: 1 });
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ current_page: 1, per_page: 2 });
    expect(
      page.body.data.every(
        (m: { rota_clients_id: number }) => m.rota_clients_id === c.defaultClientId,
      ),
    ).toBe(true);
    for (const access of ['carla', 'carlos', 'caio']) {
      await createUser(t.db, {
        access,
        password: 'member-password',
        name: access === 'caio' ? 'Caio' : 'Carla',
        last_name: 'Reis',
        memberships: [{ clientId: c.defaultClientId, profileId: defaultReaders }],
      });
    }
    const search = await c.admin.post(`${USER_CLIENTS}/index`, {
      search: 'carla',
      sort: 'user_name',
    });
    expect(search.body.meta.total).toBe(2);
    expect(search.body.data.map((m: { user_name: string }) => m.user_name)).toEqual([
      'Carla Reis',
      'Carla Reis',
    ]);
    const byProfile = await c.admin.post(`${USER_CLIENTS}/index`, {
      profiles_id: defaultReaders,
      search: 'reis',
    });
    expect(byProfile.body.meta.total).toBe(3);
    const byUser = await c.admin.post(`${USER_CLIENTS}/index`, {
      users_id: search.body.data[0].users_id,
    });
    expect(byUser.body.meta.total).toBe(1);
    const inAcme = await acme.as.post(`${USER_CLIENTS}/index`, { search: 'reis' });
    expect(inAcme.body.meta.total).toBe(0);
  });

  it('says which fields are wrong: unknown user (404), another client’s profile, duplicate', async () => {
    const empty = await c.admin.post(`${USER_CLIENTS}/create`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'users_id',
      'profiles_id',
    ]);
    const unknown = await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: 999_999,
      profiles_id: acme.adminProfileId,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', message: 'Not found' });
    const member = await acmeUser('dora');
    const foreignProfile = await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: member.usersId,
      profiles_id: acme.adminProfileId,
    });
    expect(foreignProfile.status).toBe(400);
    expect(foreignProfile.body.errors).toEqual([
      { field: 'profiles_id', message: 'This profile does not exist in the client' },
    ]);
    await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: member.usersId,
      profiles_id: defaultReaders,
    });
    const dup = await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: member.usersId,
      profiles_id: defaultAdmins,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'users_id', message: 'The user already belongs to this client' },
    ]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect(
      (
        await pt.post(`${USER_CLIENTS}/create`, {
          users_id: member.usersId,
          profiles_id: defaultAdmins,
        })
      ).body.errors,
    ).toEqual([{ field: 'users_id', message: 'O usuário já pertence a este cliente' }]);

    const [membership] = (await c.admin.post(`${USER_CLIENTS}/index`, { users_id: member.usersId }))
      .body.data;
    const foreign = await c.admin.put(`${USER_CLIENTS}/update`, {
      id: membership.user_clients_id,
      profiles_id: acme.adminProfileId,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors).toEqual([
      { field: 'profiles_id', message: 'This profile does not exist in the client' },
    ]);
  });

  it('adds only users the caller already sees: another client’s user answers like no user', async () => {
    // The attack: Acme's administrator tries every id, to add users of other clients to Acme
    // and then read their email and access there.
    const victim = await createUser(t.db, {
      access: `victim.${Math.random().toString(36).slice(2, 8)}`,
      password: 'victim-password',
      email: `victim.${Math.random().toString(36).slice(2, 8)}@other.test`,
      memberships: [
        {
          clientId: c.otherClientId,
          profileId: (await createProfile(t.db, c.otherClientId, 'Victims', [])).profiles_id,
        },
      ],
    });
    // The victim, the seeded platform administrator (of Default) and an id nobody has.
    const tries = [victim.users_id, 1, 999_999];
    const answers = [];
    for (const id of tries) {
      answers.push(
        await acme.as.post(`${USER_CLIENTS}/create`, {
          users_id: id,
          profiles_id: acme.adminProfileId,
        }),
      );
    }
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ code: 'not_found', message: 'Not found' });
    }
    const inAcme = await acme.as.post(`${USER_CLIENTS}/index`, { users_id: victim.users_id });
    expect(inAcme.body.meta.total).toBe(0);
    expect((await acme.as.post(`${USERS}/show`, { id: victim.users_id })).status).toBe(404);

    // Someone who administers two clients may bring a user of one into the other...
    const beta = await clientWithAdmin(t);
    const betaUser = await createUser(t.db, {
      access: `beta.${Math.random().toString(36).slice(2, 8)}`,
      password: 'beta-password',
      memberships: [{ clientId: beta.clientId, profileId: beta.adminProfileId }],
    });
    const both = await createUser(t.db, {
      access: `both.${Math.random().toString(36).slice(2, 8)}`,
      password: 'both-password',
      memberships: [
        { clientId: acme.clientId, profileId: acme.adminProfileId },
        { clientId: beta.clientId, profileId: beta.adminProfileId },
      ],
    });
    const bothAs = client(t.app, { token: await signIn(t.app, both.access, 'both-password') });
    await bothAs.put(`${USERS}/client_select`, {
      users_id: both.users_id,
      rota_clients_id_selected: acme.clientId,
    });
    const added = await bothAs.post(`${USER_CLIENTS}/create`, {
      users_id: betaUser.users_id,
      profiles_id: acme.adminProfileId,
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      users_id: betaUser.users_id,
      rota_clients_id: acme.clientId,
    });

    // ...but not where they may not list users.
    const blind = await createProfile(t.db, beta.clientId, 'No users', ['ROBOS.LIST']);
    const other = await createUser(t.db, {
      access: `blind.${Math.random().toString(36).slice(2, 8)}`,
      password: 'blind-password',
      memberships: [
        { clientId: acme.clientId, profileId: acme.adminProfileId },
        { clientId: beta.clientId, profileId: blind.profiles_id },
      ],
    });
    const otherAs = client(t.app, { token: await signIn(t.app, other.access, 'blind-password') });
    await otherAs.put(`${USERS}/client_select`, {
      users_id: other.users_id,
      rota_clients_id_selected: acme.clientId,
    });
    const hidden = await createUser(t.db, {
      access: `hidden.${Math.random().toString(36).slice(2, 8)}`,
      password: 'hidden-password',
      memberships: [{ clientId: beta.clientId, profileId: beta.adminProfileId }],
    });
    expect(
      (
        await otherAs.post(`${USER_CLIENTS}/create`, {
          users_id: hidden.users_id,
          profiles_id: acme.adminProfileId,
        })
      ).status,
    ).toBe(404);
  });

  it('keeps a user’s last membership (409): delete the user instead', async () => {
    const only = await createUser(t.db, {
      access: 'only.default',
      password: 'member-password',
      memberships: [{ clientId: c.defaultClientId, profileId: defaultReaders }],
    });
    const [membership] = (await c.admin.post(`${USER_CLIENTS}/index`, { users_id: only.users_id }))
      .body.data;
    const refused = await c.admin.post(`${USER_CLIENTS}/delete`, {
      id: membership.user_clients_id,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([
      { field: 'id', message: 'A user must belong to at least one client' },
    ]);
    expect(
      (await c.admin.post(`${USER_CLIENTS}/show`, { id: membership.user_clients_id })).status,
    ).toBe(200);
  });

  it('needs USUARIOS permissions, and answers 404 for another client’s memberships', async () => {
    const [mine] = (await c.admin.post(`${USER_CLIENTS}/index`, {})).body.data;
    const id = mine.user_clients_id;
    expect((await c.limited.post(`${USER_CLIENTS}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${USER_CLIENTS}/show`, { id })).status).toBe(200);
    expect(
      (await c.limited.post(`${USER_CLIENTS}/create`, { users_id: 1, profiles_id: defaultReaders }))
        .status,
    ).toBe(403);
    expect(
      (await c.limited.put(`${USER_CLIENTS}/update`, { id, profiles_id: defaultReaders })).status,
    ).toBe(403);
    expect((await c.limited.post(`${USER_CLIENTS}/delete`, { id })).status).toBe(403);
    expect((await c.other.post(`${USER_CLIENTS}/index`, {})).status).toBe(403);

    expect((await acme.as.post(`${USER_CLIENTS}/show`, { id })).status).toBe(404);
    expect(
      (await acme.as.put(`${USER_CLIENTS}/update`, { id, profiles_id: acme.adminProfileId }))
        .status,
    ).toBe(404);
    expect((await acme.as.post(`${USER_CLIENTS}/delete`, { id })).status).toBe(404);
    expect((await c.admin.post(`${USER_CLIENTS}/show`, { id })).body.data.profiles_id).toBe(
      mine.profiles_id,
    );
  });

  it('records create, update and delete in the audit log', async () => {
    const eva = await acmeUser('eva');
    const created = await c.admin.post(`${USER_CLIENTS}/create`, {
      users_id: eva.usersId,
      profiles_id: defaultReaders,
    });
    const id = created.body.data.user_clients_id;
    await c.admin.put(`${USER_CLIENTS}/update`, { id, profiles_id: defaultAdmins });
    await c.admin.post(`${USER_CLIENTS}/delete`, { id });
    const rows = await auditOf(t.db, 'user_client', id);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    expect(rows[1]!.before).toMatchObject({ profiles_id: defaultReaders });
    expect(rows[1]!.after).toMatchObject({ profiles_id: defaultAdmins });
    expect(rows[0]!.before).toMatchObject({ users_id: eva.usersId });
  });
});
