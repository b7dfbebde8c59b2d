import { eq, sql } from 'drizzle-orm';
import { sessions, userClients } from '../src/db/schema/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_REQUESTS,
  CLIENTS,
  PROFILES,
  USER_CLIENTS,
  USERS,
  auditOf,
  createUserVia,
  expectNoSecrets,
  userBody,
} from './helpers/administration.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { codeFromMail } from './helpers/mailbox.js';
import { multipart } from './helpers/multipart.js';
import { createRobot } from './helpers/robots.js';
import { TEAMS, TEAM_ROBOTS, TEAM_USERS } from './helpers/teams.js';
import { ADMIN, AUTH, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/**
 * Every change made through the users, memberships, sign-in, profiles, clients and
 * teams services writes its audit record in the change's own transaction. One test per audited
 * action proves the record (action, entity, id, who, before and after); the last proves "both
 * or neither" by making the record fail.
 */

let t: TestApp;
let admin: ReturnType<typeof client>;
let adminId: number;
let clientId: number;
let adminProfileId: number;

const unique = () => Math.random().toString(36).slice(2, 8);

/** The newest record of one action on one row. */
async function recordOf(action: string, entity: string, entityId: number | string) {
  const rows = await auditOf(t.db, entity, entityId);
  const row = rows.find((r) => r.action === action);
  expect(row, `${action} ${entity} ${entityId} recorded`).toBeDefined();
  expectNoSecrets(row!.before);
  expectNoSecrets(row!.after);
  return row!;
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  t = await createTestApp();
  const token = await signIn(t.app, ADMIN.access, ADMIN.password);
  admin = client(t.app, { token, lang: 'en' });
  const me = await admin.post(`${AUTH}/me`);
  adminId = me.body.users_id;
  clientId = (await findClient(t.db, 'Default')).rota_clients_id;
  adminProfileId = (await admin.post(`${PROFILES}/index`, { search: 'Administrator' })).body.data[0]
    .profiles_id;
});
afterAll(() => t.close());

describe('sessions and passwords', () => {
  it('records a sign-in with the session, its user and their selected client', async () => {
    const user = await createUser(t.db, {
      access: `sig.${unique()}`,
      password: 'sign-in-password',
      name: 'Sig',
      memberships: [{ clientId, profileId: adminProfileId }],
    });
    const res = await client(t.app).post(`${AUTH}/session`, {
      access: user.access,
      password: 'sign-in-password',
    });
    expect(res.status).toBe(200);
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.users_id, user.users_id));
    const record = await recordOf('sign_in', 'session', session!.sessions_id);
    expect(record.users_id).toBe(user.users_id);
    expect(record.rota_clients_id).toBe(clientId);
  });

  it('records a sign-out of the session that ended', async () => {
    const user = await createUser(t.db, {
      access: `out.${unique()}`,
      password: 'sign-out-password',
      memberships: [{ clientId, profileId: adminProfileId }],
    });
    const as = client(t.app, { token: await signIn(t.app, user.access, 'sign-out-password') });
    const signedIn = (await auditOf(t.db, 'session')).find((r) => r.users_id === user.users_id)!;
    expect((await as.post(`${AUTH}/logout`)).status).toBe(200);
    const record = await recordOf('sign_out', 'session', signedIn.entity_id!);
    expect(record.users_id).toBe(user.users_id);
  });

  it('records a password reset with a recovery code, naming neither code nor password', async () => {
    const email = `reset.${unique()}@example.com`;
    const user = await createUser(t.db, {
      access: `reset.${unique()}`,
      email,
      password: 'old-password-1',
      memberships: [{ clientId, profileId: adminProfileId }],
    });
    await client(t.app).post(`${AUTH}/recover-password`, { email });
    const code = codeFromMail(await t.mailbox.waitFor(email));
    const reset = await client(t.app).post(`${AUTH}/reset-password`, {
      code,
      password: 'new-password-1',
      confirm_password: 'new-password-1',
    });
    expect(reset.status).toBe(200);
    const record = await recordOf('password_change', 'user', user.users_id);
    expect(record.users_id).toBe(user.users_id);
    expect(record.rota_clients_id).toBe(clientId);
    expect(JSON.stringify(record)).not.toContain(code);
    expect(JSON.stringify(record)).not.toContain('new-password-1');
  });

  it('records one’s own password change and an administrator setting another’s', async () => {
    const user = await createUser(t.db, {
      access: `pw.${unique()}`,
      password: 'own-password-1',
      memberships: [{ clientId, profileId: adminProfileId }],
    });
    const as = client(t.app, { token: await signIn(t.app, user.access, 'own-password-1') });
    const own = await as.put(`${USERS}/update/password`, {
      current_password: 'own-password-1',
      password: 'own-password-2',
      confirm_password: 'own-password-2',
    });
    expect(own.status).toBe(204);
    const ownRecord = await recordOf('password_change', 'user', user.users_id);
    expect(ownRecord.users_id).toBe(user.users_id);

    const set = await admin.put(`${USERS}/update/password`, {
      users_id: user.users_id,
      password: 'given-password-1',
      confirm_password: 'given-password-1',
    });
    expect(set.status).toBe(204);
    const setRecord = await recordOf('password_change', 'user', user.users_id);
    expect(setRecord.users_id).toBe(adminId);
    expect(setRecord.after).toEqual({ password_change_required: true });
  });
});

describe('users and memberships', () => {
  it('records a user’s create, update and delete with the user as the reader sees it', async () => {
    const created = await createUserVia(admin, userBody(clientId, adminProfileId));
    const shown = (await admin.post(`${USERS}/show`, { id: created.users_id })).body.data;
    const create = await recordOf('create', 'user', created.users_id);
    expect(create.after).toEqual(shown);
    expect(create.users_id).toBe(adminId);
    expect(create.rota_clients_id).toBe(clientId);

    expect(
      (await admin.put(`${USERS}/update`, { id: created.users_id, sector: 'Audit' })).status,
    ).toBe(204);
    const changed = (await admin.post(`${USERS}/show`, { id: created.users_id })).body.data;
    const update = await recordOf('update', 'user', created.users_id);
    expect(update.before).toEqual(shown);
    expect(update.after).toEqual(changed);

    expect((await admin.post(`${USERS}/delete`, { id: created.users_id })).status).toBe(202);
    const remove = await recordOf('delete', 'user', created.users_id);
    expect(remove.before).toEqual(changed);
    expect(remove.after).toBeNull();
  });

  it('records a new picture with the old and new address', async () => {
    const { payload, contentType } = multipart(
      {},
      { field: 'avatar', name: 'me.png', type: 'image/png', data: PNG },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: `${USERS}/avatar`,
      payload,
      headers: { 'content-type': contentType, authorization: admin.authorization! },
    });
    expect(res.statusCode).toBe(200);
    const record = await recordOf('update', 'user', adminId);
    expect(record.before).toEqual({ avatar: null });
    expect(record.after).toEqual({ avatar: res.json().data.avatar });
  });

  it('records a membership’s create, update and delete', async () => {
    const other = await createUser(t.db, {
      access: `mem.${unique()}`,
      password: 'membership-password',
      memberships: [],
    });
    const reader = await createProfile(t.db, clientId, `Reader ${unique()}`, ['USUARIOS.LIST']);
    const res = await admin.post(`${USER_CLIENTS}/create`, {
      users_id: other.users_id,
      profiles_id: reader.profiles_id,
    });
    expect(res.status).toBe(201);
    const id = res.body.data.user_clients_id as number;
    const create = await recordOf('create', 'user_client', id);
    expect(create.after).toEqual(res.body.data);

    expect(
      (await admin.put(`${USER_CLIENTS}/update`, { id, profiles_id: adminProfileId })).status,
    ).toBe(204);
    const changed = (await admin.post(`${USER_CLIENTS}/show`, { id })).body.data;
    const update = await recordOf('update', 'user_client', id);
    expect(update.before).toEqual(res.body.data);
    expect(update.after).toEqual(changed);

    // Their last membership cannot go: give them a second one first.
    const acme = await admin.post(`${CLIENTS}/create`, { name: `Mem ${unique()}` });
    const acmeProfile = await createProfile(t.db, acme.body.data.rota_clients_id, 'Member', [
      'USUARIOS.LIST',
    ]);
    await t.db.insert(userClients).values({
      users_id: other.users_id,
      rota_clients_id: acme.body.data.rota_clients_id,
      profiles_id: acmeProfile.profiles_id,
    });
    expect((await admin.post(`${USER_CLIENTS}/delete`, { id })).status).toBe(202);
    const remove = await recordOf('delete', 'user_client', id);
    expect(remove.before).toEqual(changed);
  });

  it('records an access request’s review', async () => {
    const email = `req.${unique()}@example.com`;
    await client(t.app, { ip: '10.0.0.7' }).post(`${AUTH}/request-access`, {
      name: 'Rita',
      email,
      client_name: 'Contoso',
    });
    const list = await admin.post(`${ACCESS_REQUESTS}/index`, { search: email });
    const before = list.body.data[0];
    const id = before.access_requests_id as number;
    expect((await admin.put(`${ACCESS_REQUESTS}/update`, { id, status: 'dismissed' })).status).toBe(
      204,
    );
    const record = await recordOf('update', 'access_request', id);
    expect(record.before).toEqual(before);
    expect(record.after).toEqual((await admin.post(`${ACCESS_REQUESTS}/show`, { id })).body.data);
  });
});

describe('profiles and clients', () => {
  it('records a profile’s create, update and delete', async () => {
    const res = await admin.post(`${PROFILES}/create`, {
      name: `Viewer ${unique()}`,
      permissions: ['ROBOS.LIST'],
    });
    expect(res.status).toBe(201);
    const id = res.body.data.profiles_id as number;
    expect((await recordOf('create', 'profile', id)).after).toEqual(res.body.data);

    expect(
      (await admin.put(`${PROFILES}/update`, { id, permissions: ['ROBOS.LIST', 'AGENTES.LIST'] }))
        .status,
    ).toBe(204);
    const changed = (await admin.post(`${PROFILES}/show`, { id })).body.data;
    const update = await recordOf('update', 'profile', id);
    expect(update.before).toEqual(res.body.data);
    expect(update.after).toEqual(changed);

    expect((await admin.post(`${PROFILES}/delete`, { id })).status).toBe(202);
    expect((await recordOf('delete', 'profile', id)).before).toEqual(changed);
  });

  it('records a client’s create and rename in that client', async () => {
    const res = await admin.post(`${CLIENTS}/create`, { name: `Initech ${unique()}` });
    expect(res.status).toBe(201);
    const id = res.body.data.rota_clients_id as number;
    const create = await recordOf('create', 'client', id);
    expect(create.after).toEqual(res.body.data);
    expect(create.rota_clients_id).toBe(id);

    expect(
      (await admin.put(`${CLIENTS}/update`, { id, name: `Initrode ${unique()}` })).status,
    ).toBe(204);
    const update = await recordOf('update', 'client', id);
    expect(update.before).toEqual(res.body.data);
    expect(update.after).toEqual((await admin.post(`${CLIENTS}/show`, { id })).body.data);
    expect(update.rota_clients_id).toBe(id);
  });
});

describe('teams', () => {
  it('records a team’s create, update and delete, its robots and users included', async () => {
    const robot = await createRobot(admin, `Team robot ${unique()}`);
    const res = await admin.post(`${TEAMS}/create`, { name: `Ops ${unique()}`, robots: [robot] });
    expect(res.status).toBe(201);
    const id = res.body.data.teams_id as number;
    const create = await recordOf('create', 'team', id);
    expect(create.after).toEqual(res.body.data);
    expect((create.after as { robot_ids: number[] }).robot_ids).toEqual([robot]);

    expect((await admin.put(`${TEAMS}/update`, { id, users: [adminId] })).status).toBe(204);
    const changed = (await admin.post(`${TEAMS}/show`, { id })).body.data;
    const update = await recordOf('update', 'team', id);
    expect(update.before).toEqual(res.body.data);
    expect(update.after).toEqual(changed);

    expect((await admin.post(`${TEAMS}/delete`, { id })).status).toBe(202);
    expect((await recordOf('delete', 'team', id)).before).toEqual(changed);
  });

  it('records a team robot and a team user added and taken out', async () => {
    const team = await admin.post(`${TEAMS}/create`, { name: `Links ${unique()}` });
    const teamsId = team.body.data.teams_id as number;
    const robot = await createRobot(admin, `Linked robot ${unique()}`);

    const addedRobot = await admin.post(`${TEAM_ROBOTS}/create`, {
      teams_id: teamsId,
      rota_robots_id: robot,
    });
    expect(addedRobot.status).toBe(201);
    const robotLink = addedRobot.body.data.team_robots_id as number;
    const robotCreate = await recordOf('create', 'team_robot', robotLink);
    expect(robotCreate.after).toEqual(addedRobot.body.data);
    expect((await admin.post(`${TEAM_ROBOTS}/delete`, { id: robotLink })).status).toBe(202);
    expect((await recordOf('delete', 'team_robot', robotLink)).before).toEqual(
      addedRobot.body.data,
    );

    const addedUser = await admin.post(`${TEAM_USERS}/create`, {
      teams_id: teamsId,
      users_id: adminId,
    });
    expect(addedUser.status).toBe(201);
    const userLink = addedUser.body.data.team_users_id as number;
    expect((await recordOf('create', 'team_user', userLink)).after).toEqual(addedUser.body.data);
    expect((await admin.post(`${TEAM_USERS}/delete`, { id: userLink })).status).toBe(202);
    expect((await recordOf('delete', 'team_user', userLink)).before).toEqual(addedUser.body.data);
  });
});

describe('both or neither', () => {
  it('keeps the change out when its record cannot be written', async () => {
    const res = await admin.post(`${PROFILES}/create`, {
      name: `Unrecorded ${unique()}`,
      permissions: ['ROBOS.LIST'],
    });
    const id = res.body.data.profiles_id as number;
    await t.db.execute(sql`create function refuse_profile_record() returns trigger
      language plpgsql as $$ begin
        if new.entity = 'profile' and new.action = 'update' then
          raise exception 'audit refused';
        end if;
        return new;
      end $$`);
    await t.db.execute(sql`create trigger refuse_profile_record before insert on audit_logs
      for each row execute function refuse_profile_record()`);
    try {
      const update = await admin.put(`${PROFILES}/update`, { id, name: 'Should not stick' });
      expect(update.status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger refuse_profile_record on audit_logs`);
      await t.db.execute(sql`drop function refuse_profile_record()`);
    }
    expect((await admin.post(`${PROFILES}/show`, { id })).body.data).toEqual(res.body.data);
    expect((await auditOf(t.db, 'profile', id)).map((r) => r.action)).toEqual(['create']);
  });
});
