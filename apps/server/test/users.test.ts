import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '@rota/contract';
import { userClients, users } from '../src/db/schema/index.js';
import {
  AUTH,
  USERS,
  administratorProfileId,
  auditOf,
  clientWithAdmin,
  createUserVia,
  expectNoSecrets,
  userBody,
} from './helpers/administration.js';
import { createProfile, createUser, makePlatformAdmin } from './helpers/fixtures.js';
import { multipart, type FilePart } from './helpers/multipart.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';
import { setUpTenants, type Tenants } from './helpers/tenants.js';

let t: TestApp;
let c: Tenants;
let acme: Awaited<ReturnType<typeof clientWithAdmin>>;
/** Default's Administrator profile, and one that may only list users. */
let defaultAdmins: number;
let defaultReaders: number;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  c = await setUpTenants(t, { permissions: ['USUARIOS.LIST'] });
  defaultAdmins = await administratorProfileId(t.db, c.defaultClientId);
  defaultReaders = (await createProfile(t.db, c.defaultClientId, 'Readers', ['USUARIOS.LIST']))
    .profiles_id;
  acme = await clientWithAdmin(t);
  adminId = (await c.admin.post(`${AUTH}/me`)).body.users_id;
});
afterAll(() => t.close());

const ids = (res: { body: { data: { users_id: number }[] } }) =>
  res.body.data.map((u) => u.users_id);

/** A user of Default (and of Acme too, with `shared`), made by the platform administrator. */
async function defaultUser(overrides: object = {}, shared = false) {
  const body = userBody(c.defaultClientId, defaultAdmins, overrides);
  if (shared) {
    body.clients.push({ rota_clients_id: acme.clientId, profiles_id: acme.adminProfileId });
  }
  return createUserVia(c.admin, body);
}

async function signedIn(access: string, password = 'first-password') {
  return client(t.app, { token: await signIn(t.app, access, password) });
}

describe('users', () => {
  it('round-trips create, show, name, update and delete; answers never carry a password', async () => {
    const body = userBody(c.defaultClientId, defaultAdmins, {
      name: 'Ána Maria',
      last_name: 'de Souza',
    });
    const created = await c.admin.post(`${USERS}/create`, body);
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Created!');
    expect(created.body.data).toMatchObject({
      name: 'Ána Maria',
      last_name: 'de Souza',
      email: body.email,
      access: body.access,
      group: 'Finance',
      sector: 'Payments',
      work: 'Analyst',
      role: 'Operator',
      avatar: null,
      password_change_required: true,
      is_platform_admin: false,
      clients: [
        {
          rota_clients_id: c.defaultClientId,
          client_name: 'Default',
          profiles_id: defaultAdmins,
          profile_name: 'Administrator',
        },
      ],
    });
    expectNoSecrets(created.body);
    const id = created.body.data.users_id;

    const shown = await c.admin.post(`${USERS}/show`, { id });
    expect(shown.status).toBe(200);
    expect(shown.body.data).toEqual(created.body.data);

    const listed = await c.admin.post(`${USERS}/index`, { search: body.access });
    expect(ids(listed)).toEqual([id]);
    expectNoSecrets(listed.body);

    const names = await c.admin.post(`${USERS}/name`, { search: 'ána maria de' });
    expect(names.status).toBe(200);
    expect(names.body).toEqual({
      data: [{ users_id: id, name: 'Ána Maria', last_name: 'de Souza' }],
    });

    const updated = await c.admin.put(`${USERS}/update`, {
      id,
      name: 'Beatriz',
      group: 'Treasury',
      password_change_required: false,
    });
    expect(updated.status).toBe(204);
    expect((await c.admin.post(`${USERS}/show`, { id })).body.data).toMatchObject({
      name: 'Beatriz',
      last_name: 'de Souza',
      group: 'Treasury',
      password_change_required: false,
    });

    const removed = await c.admin.post(`${USERS}/delete`, { id });
    expect(removed.status).toBe(202);
    expect(removed.body.message).toBe('Removed!');
    expect((await c.admin.post(`${USERS}/show`, { id })).status).toBe(404);
    expect(await t.db.select().from(users).where(eq(users.users_id, id))).toEqual([]);
  });

  it('stores a scrypt hash; the new user starts in the first client listed and must change the password', async () => {
    const body = userBody(acme.clientId, acme.adminProfileId);
    body.clients.push({ rota_clients_id: c.defaultClientId, profiles_id: defaultReaders });
    const user = await createUserVia(c.admin, body);
    const [row] = await t.db.select().from(users).where(eq(users.users_id, user.users_id));
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('first-password');

    const session = await client(t.app).post(`${AUTH}/session`, {
      access: body.access,
      password: 'first-password',
    });
    expect(session.status).toBe(200);
    expect(session.body.rota_clients_id_selected).toBe(acme.clientId);
    expect(session.body.password_change_required).toBe(true);
    expect(
      session.body.clients.map((x: { rota_clients_id: number }) => x.rota_clients_id).sort(),
    ).toEqual([acme.clientId, c.defaultClientId].sort());
  });

  it('paginates, sorts, searches and filters by profile, over the selected client only', async () => {
    for (let i = 1; i <= 12; i++) {
      await createUser(t.db, {
        access: `pgtest.${String(i).padStart(2, '0')}`,
        password: 'whatever-1',
        memberships: [
          { clientId: c.defaultClientId, profileId: i <= 5 ? defaultReaders : defaultAdmins },
        ],
      });
    }
    await createUser(t.db, {
      access: 'pgtest.acme',
      password: 'whatever-1',
      memberships: [{ clientId: acme.clientId, profileId: acme.adminProfileId }],
    });
    const accesses = (res: { body: { data: { access: string }[] } }) =>
      res.body.data.map((u) => u.access);

    const page = await c.admin.post(`${USERS}/index`, {
      search: 'pgtest',
      sort: 'access',
      per_page: 5,
      page: 3,
    });
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ total: 12, current_page: 3, per_page: 5 });
    expect(accesses(page)).toEqual(['pgtest.11', 'pgtest.12']);

    const desc = await c.admin.post(`${USERS}/index`, {
      search: 'PGTEST',
      sort: 'access',
      order: 'desc',
      per_page: 2,
    });
    expect(accesses(desc)).toEqual(['pgtest.12', 'pgtest.11']);

    const readers = await c.admin.post(`${USERS}/index`, {
      search: 'pgtest',
      profiles_id: defaultReaders,
    });
    expect(readers.body.meta.total).toBe(5);

    const defaults = await c.admin.post(`${USERS}/index`);
    expect(defaults.body.meta).toMatchObject({ current_page: 1, per_page: 20 });

    const inAcme = await acme.as.post(`${USERS}/index`, { search: 'pgtest' });
    expect(accesses(inAcme)).toEqual(['pgtest.acme']);
    const names = await acme.as.post(`${USERS}/name`, {});
    expect(names.body.data.map((u: { users_id: number }) => u.users_id)).not.toContain(adminId);
  });

  it('says which fields are wrong, in English and in Portuguese', async () => {
    const empty = await c.admin.post(`${USERS}/create`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([
      { field: 'name', message: 'Required first name' },
      { field: 'last_name', message: 'Required last name' },
      { field: 'email', message: 'Required email' },
      { field: 'access', message: 'Required acess' },
      { field: 'group', message: 'Required group' },
      { field: 'sector', message: 'Required sector' },
      { field: 'work', message: 'Required work' },
      { field: 'role', message: 'Required role' },
      { field: 'clients', message: 'Client is required' },
      { field: 'password', message: 'Required password' },
    ]);

    const wrong = {
      ...userBody(c.defaultClientId, defaultAdmins),
      name: 'Ana1',
      last_name: 'S0uza',
      email: 'not-an-email',
      access: 'AB',
      clients: [],
      password: 'short',
    };
    const formats = await c.admin.post(`${USERS}/create`, wrong);
    expect(formats.body.errors).toEqual([
      { field: 'name', message: 'It s not in the correct format, just type letters.' },
      { field: 'last_name', message: 'It s not in the correct format, just type letters.' },
      { field: 'email', message: 'Invalid email' },
      { field: 'access', message: 'Invalid acess' },
      { field: 'clients', message: 'Client is required' },
      { field: 'password', message: 'The password must have at least 8 characters' },
    ]);

    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect((await pt.post(`${USERS}/create`, {})).body.errors).toEqual([
      { field: 'name', message: 'Nome obrigatório' },
      { field: 'last_name', message: 'Sobrenome obrigatório' },
      { field: 'email', message: 'E-mail obrigatório' },
      { field: 'access', message: 'Acesso obrigatório' },
      { field: 'group', message: 'Grupo obrigatório' },
      { field: 'sector', message: 'Setor obrigatório' },
      { field: 'work', message: 'Trabalho obrigatório' },
      { field: 'role', message: 'Cargo obrigatório' },
      { field: 'clients', message: 'Cliente é obrigatório' },
      { field: 'password', message: 'Senha obrigatória' },
    ]);
    expect((await pt.post(`${USERS}/create`, wrong)).body.errors).toEqual([
      { field: 'name', message: 'Não está no formato correto, digite apenas letras.' },
      { field: 'last_name', message: 'Não está no formato correto, digite apenas letras.' },
      { field: 'email', message: 'E-mail inválido' },
      { field: 'access', message: 'Acesso inválido' },
      { field: 'clients', message: 'Cliente é obrigatório' },
      { field: 'password', message: 'A senha deve ter pelo menos 8 caracteres' },
    ]);

    const user = await defaultUser();
    const blank = await c.admin.put(`${USERS}/update`, {
      id: user.users_id,
      name: ' ',
      access: '',
      role: '',
    });
    expect(blank.body.errors).toEqual([
      { field: 'name', message: 'Required first name' },
      { field: 'access', message: 'Required acess' },
      { field: 'role', message: 'Required role' },
    ]);
    const twice = await c.admin.put(`${USERS}/update`, {
      id: user.users_id,
      clients: [
        { rota_clients_id: c.defaultClientId, profiles_id: defaultAdmins },
        { rota_clients_id: c.defaultClientId, profiles_id: defaultReaders },
      ],
    });
    expect(twice.body.errors).toEqual([{ field: 'clients', message: 'Invalid value' }]);
  });

  it('refuses a taken email or access with 409 naming each field', async () => {
    const first = await defaultUser();
    const dup = await c.admin.post(
      `${USERS}/create`,
      userBody(c.defaultClientId, defaultAdmins, {
        email: first.email.toUpperCase(),
        access: first.access,
      }),
    );
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([
      { field: 'email', message: 'A user with this email already exists' },
      { field: 'access', message: 'A user with this access already exists' },
    ]);
    const second = await defaultUser();
    const taken = await c.admin.put(`${USERS}/update`, {
      id: second.users_id,
      email: first.email,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual([
      { field: 'email', message: 'A user with this email already exists' },
    ]);
    // One's own values are not a conflict.
    const same = await c.admin.put(`${USERS}/update`, {
      id: second.users_id,
      email: second.email,
      access: second.access,
    });
    expect(same.status).toBe(204);
  });

  it('grants memberships only in clients where the actor may create users, with their profiles', async () => {
    const notMine = await acme.as.post(
      `${USERS}/create`,
      userBody(c.defaultClientId, defaultAdmins),
    );
    expect(notMine.status).toBe(400);
    expect(notMine.body.errors).toEqual([
      { field: 'clients.0.rota_clients_id', message: 'You do not belong to this client' },
    ]);
    const foreignProfile = await acme.as.post(
      `${USERS}/create`,
      userBody(acme.clientId, defaultAdmins),
    );
    expect(foreignProfile.body.errors).toEqual([
      { field: 'clients.0.profiles_id', message: 'This profile does not exist in the client' },
    ]);
    expect(
      (await acme.as.post(`${USERS}/create`, userBody(acme.clientId, acme.adminProfileId))).status,
    ).toBe(201);

    // A member of Default who may only list users there cannot grant Default.
    const twoClients = await clientWithAdmin(t);
    await t.db.insert(userClients).values({
      users_id: twoClients.usersId,
      rota_clients_id: c.defaultClientId,
      profiles_id: defaultReaders,
    });
    const body = userBody(twoClients.clientId, twoClients.adminProfileId);
    body.clients.push({ rota_clients_id: c.defaultClientId, profiles_id: defaultReaders });
    const noCreate = await twoClients.as.post(`${USERS}/create`, body);
    expect(noCreate.body.errors).toEqual([
      { field: 'clients.1.rota_clients_id', message: 'You do not have authorization!' },
    ]);

    const unknown = await c.admin.post(`${USERS}/create`, userBody(999_999, defaultAdmins));
    expect(unknown.body.errors).toEqual([
      { field: 'clients.0.rota_clients_id', message: 'Invalid value' },
    ]);
    expect(unknown.status).toBe(400);
    // The refused user was not written, not even with its one valid membership.
    expect(noCreate.status).toBe(400);
    expect(await t.db.select().from(users).where(eq(users.email, body.email))).toEqual([]);
  });

  it('changes memberships only among the clients the actor manages, and the account only when it manages all', async () => {
    const shared = await defaultUser({}, true);
    const acmeReaders = await createProfile(t.db, acme.clientId, 'Acme readers', ['USUARIOS.LIST']);
    const moved = await acme.as.put(`${USERS}/update`, {
      id: shared.users_id,
      clients: [{ rota_clients_id: acme.clientId, profiles_id: acmeReaders.profiles_id }],
    });
    expect(moved.status).toBe(204);
    const seenByPlatform = (await c.admin.post(`${USERS}/show`, { id: shared.users_id })).body.data;
    expect(
      seenByPlatform.clients.map((m: { rota_clients_id: number; profiles_id: number }) => [
        m.rota_clients_id,
        m.profiles_id,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [c.defaultClientId, defaultAdmins],
        [acme.clientId, acmeReaders.profiles_id],
      ]),
    );
    // Acme's administrator sees the user's Acme membership only.
    const seenByAcme = (await acme.as.post(`${USERS}/show`, { id: shared.users_id })).body.data;
    expect(seenByAcme.clients).toEqual([
      {
        rota_clients_id: acme.clientId,
        client_name: acme.name,
        profiles_id: acmeReaders.profiles_id,
        profile_name: 'Acme readers',
      },
    ]);

    const rename = await acme.as.put(`${USERS}/update`, { id: shared.users_id, name: 'Changed' });
    expect(rename.status).toBe(403);
    const unchanged = await acme.as.put(`${USERS}/update`, {
      id: shared.users_id,
      name: seenByAcme.name,
      email: seenByAcme.email,
    });
    expect(unchanged.status).toBe(204);
    // A membership sent back untouched needs no authority over its client…
    const untouched = await acme.as.put(`${USERS}/update`, {
      id: shared.users_id,
      clients: [
        { rota_clients_id: c.defaultClientId, profiles_id: defaultAdmins },
        { rota_clients_id: acme.clientId, profiles_id: acmeReaders.profiles_id },
      ],
    });
    expect(untouched.status).toBe(204);
    // …a changed one does.
    const defaultReaders = await createProfile(t.db, c.defaultClientId, 'Default readers', []);
    const grantDefault = await acme.as.put(`${USERS}/update`, {
      id: shared.users_id,
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: defaultReaders.profiles_id }],
    });
    expect(grantDefault.status).toBe(400);
    expect(grantDefault.body.errors).toEqual([
      { field: 'clients.0.rota_clients_id', message: 'You do not belong to this client' },
    ]);

    // Nothing is half-written: a refused membership keeps the name unchanged too.
    const half = await c.admin.put(`${USERS}/update`, {
      id: shared.users_id,
      name: 'Zed',
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: acmeReaders.profiles_id }],
    });
    expect(half.status).toBe(400);
    expect((await c.admin.post(`${USERS}/show`, { id: shared.users_id })).body.data.name).toBe(
      'Ana',
    );

    // The platform administrator manages every client: the Acme membership goes.
    const onlyDefault = await c.admin.put(`${USERS}/update`, {
      id: shared.users_id,
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: defaultAdmins }],
    });
    expect(onlyDefault.status).toBe(204);
    expect((await acme.as.post(`${USERS}/show`, { id: shared.users_id })).status).toBe(404);
  });

  it('applies a membership change at the user’s next request, and moves their selected client', async () => {
    const reader = await defaultUser({ password_change_required: false });
    await c.admin.put(`${USERS}/update`, {
      id: reader.users_id,
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: defaultReaders }],
    });
    const as = await signedIn(reader.access);
    expect((await as.post(`${USERS}/index`, {})).status).toBe(200);

    const nothing = await createProfile(t.db, c.defaultClientId, 'Nothing', []);
    await c.admin.put(`${USERS}/update`, {
      id: reader.users_id,
      clients: [{ rota_clients_id: c.defaultClientId, profiles_id: nothing.profiles_id }],
    });
    expect((await as.post(`${USERS}/index`, {})).status).toBe(403);

    // Out of Default into Acme: the same session now works for Acme.
    await c.admin.put(`${USERS}/update`, {
      id: reader.users_id,
      clients: [{ rota_clients_id: acme.clientId, profiles_id: acme.adminProfileId }],
    });
    const listed = await as.post(`${USERS}/index`, {});
    expect(listed.status).toBe(200);
    expect(ids(listed)).toContain(acme.usersId);
    const me = await as.post(`${AUTH}/me`);
    expect(me.body.rota_clients_id_selected).toBe(acme.clientId);
    expect(me.body.clients).toEqual([{ rota_clients_id: acme.clientId, name: acme.name }]);
  });

  it('deleting a user ends their sessions at once; nobody deletes themselves', async () => {
    const doomed = await defaultUser();
    const as = await signedIn(doomed.access);
    expect((await as.post(`${AUTH}/me`)).status).toBe(200);
    expect((await c.admin.post(`${USERS}/delete`, { id: doomed.users_id })).status).toBe(202);
    expect((await as.post(`${AUTH}/me`)).status).toBe(401);
    const again = await client(t.app).post(`${AUTH}/session`, {
      access: doomed.access,
      password: 'first-password',
    });
    expect(again.status).toBe(401);

    const self = await c.admin.post(`${USERS}/delete`, { id: adminId });
    expect(self.status).toBe(400);
    expect(self.body.errors).toEqual([{ field: 'id', message: 'You cannot delete your own user' }]);
    const pt = client(t.app, { token: c.adminToken, lang: 'pt' });
    expect((await pt.post(`${USERS}/delete`, { id: adminId })).body.errors).toEqual([
      { field: 'id', message: 'Você não pode excluir o seu próprio usuário' },
    ]);
  });

  it('an administrator of one client takes a shared user out of it instead of deleting them', async () => {
    const shared = await defaultUser({ password_change_required: false }, true);
    const as = await signedIn(shared.access);
    const res = await acme.as.post(`${USERS}/delete`, { id: shared.users_id });
    expect(res.status).toBe(202);
    const still = await c.admin.post(`${USERS}/show`, { id: shared.users_id });
    expect(still.status).toBe(200);
    expect(
      still.body.data.clients.map((m: { rota_clients_id: number }) => m.rota_clients_id),
    ).toEqual([c.defaultClientId]);
    expect((await as.post(`${AUTH}/me`)).status).toBe(200);
    const [audit] = await auditOf(t.db, 'user_client');
    expect(audit).toMatchObject({ action: 'delete', rota_clients_id: acme.clientId });
    expect(audit!.before).toMatchObject({
      users_id: shared.users_id,
      rota_clients_id: acme.clientId,
    });

    // A platform administrator's account is beyond a client administrator's reach.
    const platform = await createUserVia(acme.as, userBody(acme.clientId, acme.adminProfileId));
    await makePlatformAdmin(t.db, platform.users_id);
    const last = await acme.as.post(`${USERS}/delete`, { id: platform.users_id });
    expect(last.status).toBe(409);
    expect(last.body.errors).toEqual([
      { field: 'id', message: 'A user must belong to at least one client' },
    ]);
    expect(
      (await acme.as.put(`${USERS}/update`, { id: platform.users_id, name: 'Eve' })).status,
    ).toBe(403);
    expect(
      (
        await acme.as.put(`${USERS}/update/password`, {
          users_id: platform.users_id,
          password: 'taken-over-1',
          confirm_password: 'taken-over-1',
        })
      ).status,
    ).toBe(403);
  });

  it('sets another user’s password: their sessions end and they must change it', async () => {
    const target = await defaultUser({ password_change_required: false });
    const as = await signedIn(target.access);
    const set = await c.admin.put(`${USERS}/update/password`, {
      users_id: target.users_id,
      password: 'set-by-admin-1',
      confirm_password: 'set-by-admin-1',
    });
    expect(set.status).toBe(204);
    expect((await as.post(`${AUTH}/me`)).status).toBe(401);
    const after = await signedIn(target.access, 'set-by-admin-1');
    expect((await after.post(`${AUTH}/me`)).body.password_change_required).toBe(true);
    const [audit] = await auditOf(t.db, 'user', target.users_id);
    expect(audit).toMatchObject({ action: 'password_change', users_id: adminId });
    expectNoSecrets([audit!.before, audit!.after]);

    await c.admin.put(`${USERS}/update/password`, {
      users_id: target.users_id,
      password: 'set-by-admin-2',
      confirm_password: 'set-by-admin-2',
      password_change_required: false,
    });
    const free = await signedIn(target.access, 'set-by-admin-2');
    expect((await free.post(`${AUTH}/me`)).body.password_change_required).toBe(false);
    expect((await free.post(`${USERS}/index`, {})).status).toBe(200);

    const mismatch = await c.admin.put(`${USERS}/update/password`, {
      users_id: target.users_id,
      password: 'set-by-admin-3',
      confirm_password: 'something-else',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { field: 'confirm_password', message: 'Passwords must match' },
    ]);
    const ptEmpty = await client(t.app, { token: c.adminToken, lang: 'pt' }).put(
      `${USERS}/update/password`,
      { users_id: target.users_id },
    );
    expect(ptEmpty.body.errors).toEqual([
      { field: 'password', message: 'Senha obrigatória' },
      { field: 'confirm_password', message: 'Senha obrigatória' },
    ]);

    const body = {
      users_id: target.users_id,
      password: 'nope-nope-1',
      confirm_password: 'nope-nope-1',
    };
    expect((await c.limited.put(`${USERS}/update/password`, body)).status).toBe(403);
    expect((await acme.as.put(`${USERS}/update/password`, body)).status).toBe(404);
    const shared = await defaultUser({}, true);
    expect(
      (await acme.as.put(`${USERS}/update/password`, { ...body, users_id: shared.users_id }))
        .status,
    ).toBe(403);

    // Naming oneself is the self-service path: the current password is still asked.
    const selfPath = await c.admin.put(`${USERS}/update/password`, {
      users_id: adminId,
      password: 'new-admin-pass',
      confirm_password: 'new-admin-pass',
    });
    expect(selfPath.status).toBe(400);
    expect(selfPath.body.errors).toEqual([
      { field: 'current_password', message: 'Required current password' },
    ]);
  });

  it('needs USUARIOS permissions, and answers 404 for another client’s users', async () => {
    const user = await defaultUser();
    expect((await c.limited.post(`${USERS}/index`, {})).status).toBe(200);
    expect((await c.limited.post(`${USERS}/show`, { id: user.users_id })).status).toBe(200);
    expect((await c.limited.post(`${USERS}/name`, {})).status).toBe(200);
    expect(
      (await c.limited.post(`${USERS}/create`, userBody(c.defaultClientId, defaultAdmins))).status,
    ).toBe(403);
    expect((await c.limited.put(`${USERS}/update`, { id: user.users_id, name: 'X' })).status).toBe(
      403,
    );
    expect((await c.limited.post(`${USERS}/delete`, { id: user.users_id })).status).toBe(403);

    const none = await setUpTenants(t, { permissions: ['ROBOS.LIST'] });
    expect((await none.limited.post(`${USERS}/index`, {})).status).toBe(403);
    expect((await none.limited.post(`${USERS}/name`, {})).status).toBe(403);
    expect((await none.limited.post(`${USERS}/show`, { id: user.users_id })).status).toBe(403);

    expect((await acme.as.post(`${USERS}/show`, { id: user.users_id })).status).toBe(404);
    expect(
      (await acme.as.put(`${USERS}/update`, { id: user.users_id, name: 'Stolen' })).status,
    ).toBe(404);
    expect((await acme.as.post(`${USERS}/delete`, { id: user.users_id })).status).toBe(404);
    expect((await c.admin.post(`${USERS}/show`, { id: user.users_id })).body.data.name).toBe('Ana');
  });

  it('records create, update, delete, sign-in and sign-out in the audit log, without secrets', async () => {
    const user = await defaultUser({ password_change_required: false });
    await c.admin.put(`${USERS}/update`, { id: user.users_id, role: 'Lead' });
    const token = await signIn(t.app, user.access, 'first-password');
    await client(t.app, { token }).post(`${AUTH}/logout`);
    await c.admin.post(`${USERS}/delete`, { id: user.users_id });

    const rows = await auditOf(t.db, 'user', user.users_id);
    expect(rows.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    const [deleted, updated, created] = rows;
    expect(created).toMatchObject({ users_id: adminId, rota_clients_id: c.defaultClientId });
    expect(created!.after).toMatchObject({ email: user.email, access: user.access });
    expect(updated!.before).toMatchObject({ role: 'Operator' });
    expect(updated!.after).toMatchObject({ role: 'Lead' });
    expect(deleted!.before).toMatchObject({ users_id: user.users_id, role: 'Lead' });
    expectNoSecrets(rows.map((r) => [r.before, r.after]));

    const sessions = (await auditOf(t.db, 'session')).filter((r) => r.users_id === user.users_id);
    expect(sessions.map((r) => r.action)).toEqual(['sign_out', 'sign_in']);
    expect(sessions[1]).toMatchObject({
      rota_clients_id: c.defaultClientId,
      user_name: 'Ana Souza',
    });
    expectNoSecrets(sessions.map((r) => [r.before, r.after]));
    // A failed sign-in is not a sign-in.
    await client(t.app).post(`${AUTH}/session`, {
      access: ADMIN.access,
      password: 'wrong-password',
    });
    const adminSignIns = (await auditOf(t.db, 'session')).filter(
      (r) => r.users_id === adminId && r.action === 'sign_in',
    );
    expect(adminSignIns.length).toBeGreaterThan(0);
    expect(adminSignIns.every((r) => r.rota_clients_id === c.defaultClientId)).toBe(true);
  });
});

/* ---------- Avatars ---------- */

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);

async function upload(
  token: string,
  fields: Record<string, string | number>,
  file?: Partial<FilePart> & { data: Buffer },
  lang: 'en' | 'pt' = 'en',
) {
  const part = file ? { field: 'avatar', name: 'me.png', type: 'image/png', ...file } : undefined;
  const { payload, contentType } = multipart(fields, part);
  const res = await t.app.inject({
    method: 'POST',
    url: `${USERS}/avatar`,
    payload,
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${token}`,
      'accept-language': lang,
    },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('avatars', () => {
  it('uploads one’s own picture, serves it publicly with long caching, and removes it', async () => {
    const res = await upload(c.adminToken, {}, { data: PNG });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Picture saved');
    expect(res.body.data.users_id).toBe(adminId);
    const url: string = res.body.data.avatar;
    expect(url).toMatch(/^\/api\/user\/api\/v1\/avatar\/[0-9a-f]{64}\.png$/);
    expect((await c.admin.post(`${AUTH}/me`)).body.avatar).toBe(url);

    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // Kept by the blob store: DATA_DIR/avatars on PGlite, PostgreSQL with DATABASE_URL.
    const file = url.split('/').pop()!;
    expect(await t.app.services.blobs.names('avatar')).toContain(file);

    // A JPEG sent as "image/png" is stored as what it is.
    const jpeg = await upload(c.adminToken, {}, { data: JPEG });
    expect(jpeg.body.data.avatar).toMatch(/\.jpg$/);
    expect(await t.app.services.blobs.names('avatar')).not.toContain(file);

    expect((await c.admin.put(`${USERS}/update`, { id: adminId, avatar: null })).status).toBe(204);
    expect((await c.admin.post(`${AUTH}/me`)).body.avatar).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: jpeg.body.data.avatar })).statusCode).toBe(
      404,
    );
    const [audit] = await auditOf(t.db, 'user', adminId);
    expect(audit!.before).toMatchObject({ avatar: jpeg.body.data.avatar });
    expect(audit!.after).toMatchObject({ avatar: null });
  });

  it('refuses what is not an image, or is larger than 1 MB, as field errors', async () => {
    const text = await upload(c.adminToken, {}, { data: Buffer.from('hello, not a picture') });
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual([
      { field: 'avatar', message: 'The picture must be a PNG, JPEG, WebP or GIF image' },
    ]);
    const svg = await upload(
      c.adminToken,
      {},
      {
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
        type: 'image/svg+xml',
      },
      'pt',
    );
    expect(svg.body.errors).toEqual([
      { field: 'avatar', message: 'A imagem deve ser PNG, JPEG, WebP ou GIF' },
    ]);
    const big = Buffer.concat([PNG, Buffer.alloc(AVATAR_MAX_BYTES + 1 - PNG.length)]);
    const tooLarge = await upload(c.adminToken, {}, { data: big });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.errors).toEqual([
      { field: 'avatar', message: 'The picture is larger than 1 MB' },
    ]);
    const huge = await upload(c.adminToken, {}, { data: Buffer.concat([big, big]) });
    expect(huge.body.errors).toEqual([
      { field: 'avatar', message: 'The picture is larger than 1 MB' },
    ]);
    const exact = await upload(c.adminToken, {}, { data: big.subarray(0, AVATAR_MAX_BYTES) });
    expect(exact.status).toBe(200);
    const none = await upload(c.adminToken, {});
    expect(none.body.errors).toEqual([{ field: 'avatar', message: 'Required file' }]);
    const json = await c.admin.post(`${USERS}/avatar`, { id: adminId });
    expect(json.status).toBe(415);
    expect((await c.admin.post(`${AUTH}/me`)).body.avatar).toBe(exact.body.data.avatar);
  });

  it('sets another user’s picture with USUARIOS.UPDATE, within the selected client', async () => {
    const user = await defaultUser();
    const res = await upload(c.adminToken, { id: user.users_id }, { data: PNG });
    expect(res.status).toBe(200);
    expect(res.body.data.users_id).toBe(user.users_id);
    expect((await c.admin.post(`${USERS}/show`, { id: user.users_id })).body.data.avatar).toBe(
      res.body.data.avatar,
    );
    expect((await upload(c.otherToken, { id: user.users_id }, { data: PNG })).status).toBe(403);
    expect((await upload(acme.token, { id: user.users_id }, { data: PNG })).status).toBe(404);
    expect((await upload(c.adminToken, { id: 'abc' }, { data: PNG })).body.errors).toEqual([
      { field: 'id', message: 'Invalid value' },
    ]);
    // Without a session, nothing.
    const { payload, contentType } = multipart({}, { field: 'avatar', name: 'a.png', data: PNG });
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `${USERS}/avatar`,
      payload,
      headers: { 'content-type': contentType },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('serves only names it made', async () => {
    for (const name of [
      'abc.png',
      `${'0'.repeat(64)}.svg`,
      '..%2F..%2Fetc%2Fpasswd',
      `${'0'.repeat(64)}.png`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `${USERS}/avatar/${name}` });
      expect(res.statusCode, name).toBe(404);
    }
  });
});
