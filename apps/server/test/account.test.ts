import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, expectNoSecrets } from './helpers/administration.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { multipart } from './helpers/multipart.js';
import { AUTH, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/**
 * "My account": a user changes their own name, password, picture, language and
 * colour scheme; the last two are kept on the server and answered at sign-in on any browser.
 */
const USERS = '/api/user/api/v1';
const ACCOUNT = `${USERS}/account/update`;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let t: TestApp;
let usersId: number;
const access = `myself${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  t = await createTestApp();
  const def = await findClient(t.db, 'Default');
  // No permission at all: one's own account needs none.
  const profile = await createProfile(t.db, def.rota_clients_id, `Nobody ${access}`, []);
  const user = await createUser(t.db, {
    access,
    password: 'first-password',
    name: 'Ana',
    last_name: 'Souza',
    memberships: [{ clientId: def.rota_clients_id, profileId: profile.profiles_id }],
  });
  usersId = user.users_id;
});
afterAll(async () => {
  await t?.close();
});

describe('my account', () => {
  it('changes one’s own name, language and colour scheme; sign-in answers them anywhere', async () => {
    const first = await signIn(t.app, access, 'first-password');
    const session = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/session`,
      payload: { access, password: 'first-password' },
    });
    expect(session.json()).toMatchObject({ language: null, color_scheme: null });

    const as = client(t.app, { token: first, lang: 'pt' });
    const saved = await as.put(ACCOUNT, {
      name: 'Ana Clara',
      last_name: 'Souza Lima',
      language: 'en',
      color_scheme: 'dark',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Sua conta foi salva');
    expect(saved.body.data).toMatchObject({
      users_id: usersId,
      name: 'Ana Clara',
      last_name: 'Souza Lima',
      language: 'en',
      color_scheme: 'dark',
    });
    expect((await as.post(`${AUTH}/me`)).body).toMatchObject({
      name: 'Ana Clara',
      language: 'en',
      color_scheme: 'dark',
    });

    // Another browser: the sign-in answer carries them.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/session`,
      payload: { access, password: 'first-password' },
    });
    expect(elsewhere.json()).toMatchObject({
      name: 'Ana Clara',
      language: 'en',
      color_scheme: 'dark',
    });

    // A subset leaves the rest; null clears a preference.
    const partial = await as.put(ACCOUNT, { color_scheme: null });
    expect(partial.body.data).toMatchObject({
      name: 'Ana Clara',
      language: 'en',
      color_scheme: null,
    });

    const [audit] = await auditOf(t.db, 'user', usersId);
    expect(audit).toMatchObject({ action: 'update', users_id: usersId });
    expect(audit!.before).toMatchObject({ color_scheme: 'dark' });
    expect(audit!.after).toMatchObject({ color_scheme: null });
    expectNoSecrets([audit!.before, audit!.after]);
  });

  it('says which fields are wrong, in the caller’s language, and never 500', async () => {
    const token = await signIn(t.app, access, 'first-password');
    const en = await client(t.app, { token, lang: 'en' }).put(ACCOUNT, {
      name: '',
      language: 'fr',
      color_scheme: 'pink',
    });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Required first name' },
        { field: 'language', message: expect.any(String) },
        { field: 'color_scheme', message: expect.any(String) },
      ]),
    );
    const pt = await client(t.app, { token, lang: 'pt' }).put(ACCOUNT, { name: '' });
    expect(pt.body.errors).toEqual([{ field: 'name', message: 'Nome obrigatório' }]);
    expect((await client(t.app, {}).put(ACCOUNT, { name: 'X' })).status).toBe(401);
  });

  it('changes one’s own password: this session stays, the others end', async () => {
    const mine = client(t.app, { token: await signIn(t.app, access, 'first-password') });
    const other = client(t.app, { token: await signIn(t.app, access, 'first-password') });
    const wrong = await mine.put(`${USERS}/update/password`, {
      current_password: 'not-it-at-all',
      password: 'second-password',
      confirm_password: 'second-password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('current_password');

    const changed = await mine.put(`${USERS}/update/password`, {
      current_password: 'first-password',
      password: 'second-password',
      confirm_password: 'second-password',
    });
    expect(changed.status).toBe(204);
    expect((await mine.post(`${AUTH}/me`)).status).toBe(200);
    expect((await other.post(`${AUTH}/me`)).status).toBe(401);
    const again = client(t.app, { token: await signIn(t.app, access, 'second-password') });
    // Put it back for the other tests.
    await again.put(`${USERS}/update/password`, {
      current_password: 'second-password',
      password: 'first-password',
      confirm_password: 'first-password',
    });
  });

  it('uploads and removes one’s own picture', async () => {
    const token = await signIn(t.app, access, 'first-password');
    const { payload, contentType } = multipart({}, { field: 'avatar', name: 'a.png', data: PNG });
    const up = await t.app.inject({
      method: 'POST',
      url: `${USERS}/avatar`,
      payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
    });
    expect(up.statusCode).toBe(200);
    const url = up.json().data.avatar as string;
    const as = client(t.app, { token });
    expect((await as.post(`${AUTH}/me`)).body.avatar).toBe(url);

    const removed = await as.put(ACCOUNT, { avatar: null });
    expect(removed.status).toBe(200);
    expect(removed.body.data.avatar).toBeNull();
    expect((await as.post(`${AUTH}/me`)).body.avatar).toBeNull();
    // Nobody else showed it: the file is gone.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});
