import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userApiKeys } from '../src/db/schema/index.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { ENDPOINTS } from './helpers/endpoint-table.js';
import { codeFromMail } from './helpers/mailbox.js';
import { ADMIN, AUTH, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/** Account changes need a signed-in session: a personal API key, however broad, is refused. */

const KEYS = '/api/user/apikey/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
const PASSWORD = '/api/user/api/v1/update/password';
let t: TestApp;
let admin: ReturnType<typeof client>;
let clientId: number;
let profileId: number;

type Caller = ReturnType<typeof client>;

async function newKey(as: Caller, body: Record<string, unknown> = { name: 'Broad' }) {
  const res = await as.post(`${KEYS}/create`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body.data as { key: string }).key;
}

const call = (as: Caller, key: string) => {
  const [method, template] = key.split(' ') as [string, string];
  const path = template.replace(/\{[^}]+\}/g, '1');
  // The refusal comes before the body is read: any body will do.
  if (method === 'GET') return as.get(path);
  return method === 'PUT' ? as.put(path, {}) : as.post(path, {});
};

let users = 0;
async function member(password: string) {
  const access = `session.only.${++users}`;
  const user = await createUser(t.db, {
    access,
    email: `${access}@example.com`,
    password,
    name: 'Sam',
    last_name: 'Session',
    memberships: [{ clientId, profileId }],
  });
  const session = client(t.app, { token: await signIn(t.app, access, password), lang: 'en' });
  return { user, access, session };
}

beforeAll(async () => {
  t = await createTestApp({ engine: { loop: false } });
  admin = client(t.app, { token: await signIn(t.app, ADMIN.access, ADMIN.password), lang: 'en' });
  clientId = (await findClient(t.db, 'Default')).rota_clients_id;
  profileId = (await createProfile(t.db, clientId, 'Key makers', ['ROBOS.LIST'])).profiles_id;
}, 60_000);
afterAll(() => t.close());

const sessionOnly = Object.entries(ENDPOINTS)
  .filter(([, e]) => e.sessionOnly)
  .map(([key]) => key);

describe('session-only routes', () => {
  it('include every account change', () => {
    // At least these; a new account route joins the list by saying `sessionOnly` in the table.
    expect(sessionOnly).toEqual(
      expect.arrayContaining([
        'POST /api/user/api/auth/v1/logout',
        'POST /api/user/api/auth/v1/sessions/index',
        'POST /api/user/api/auth/v1/sessions/revoke',
        'POST /api/user/api/auth/v1/sessions/revoke-others',
        'POST /api/user/mfa/api/v1/status',
        'POST /api/user/mfa/api/v1/enrol/start',
        'POST /api/user/mfa/api/v1/enrol/confirm',
        'POST /api/user/mfa/api/v1/recovery-codes',
        'POST /api/user/mfa/api/v1/disable',
        'POST /api/user/mfa/api/v1/reset',
        'PUT /api/user/api/v1/update/password',
        'PUT /api/user/api/v1/account/update',
        'PUT /api/user/api/v1/client_select',
        'POST /api/user/apikey/api/v1/index',
        'POST /api/user/apikey/api/v1/create',
        'POST /api/user/apikey/api/v1/revoke',
      ]),
    );
    expect(sessionOnly).not.toContain('PUT /api/user/api/v1/update');
  });

  it.each(sessionOnly)(
    '%s refuses an API key holding every permission (403 session_required)',
    async (key) => {
      const broad = client(t.app, { token: await newKey(admin), lang: 'en' });
      const res = await call(broad, key);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.code).toBe('session_required');
      expect(res.body.message).toMatch(/^This action needs a signed-in session, not an API key/);
    },
  );

  it('answers the refusal in the caller’s language, and the key still works elsewhere', async () => {
    const key = await newKey(admin);
    const pt = await client(t.app, { token: key, lang: 'pt' }).put(PASSWORD, {});
    expect(pt.status).toBe(403);
    expect(pt.body.message).toMatch(
      /^Esta ação precisa de uma sessão iniciada, não de uma chave de API/,
    );
    expect((await client(t.app, { token: key }).post(`${ROBOTS}/index`, {})).status).toBe(200);
    expect((await client(t.app, { token: key }).post(`${AUTH}/me`)).status).toBe(200);
  });

  it('refuses the password change the attack made with a ROBOS.LIST key', async () => {
    const { session } = await member('first-password-1');
    const key = client(t.app, {
      token: await newKey(session, { name: 'Reader', permissions: ['ROBOS.LIST'] }),
    });
    const res = await key.put(PASSWORD, {
      current_password: 'first-password-1',
      password: 'taken-over-1',
      confirm_password: 'taken-over-1',
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('session_required');
    expect((await session.post(`${AUTH}/me`)).status).toBe(200);
  });
});

describe('an email change', () => {
  it('is refused to a key; the rest of a user’s update is not', async () => {
    const { user, access } = await member('first-password-1');
    const key = client(t.app, { token: await newKey(admin), lang: 'en' });
    const update = (body: Record<string, unknown>) =>
      key.put('/api/user/api/v1/update', { id: user.users_id, ...body });

    expect((await update({ role: 'Changed by a key' })).status).toBe(204);
    // The email it already has, as a form sends it back whole.
    expect((await update({ email: `${access}@example.com`, role: 'Again' })).status).toBe(204);
    const moved = await update({ email: 'thief@example.com' });
    expect(moved.status).toBe(403);
    expect(moved.body.code).toBe('session_required');
    const shown = await admin.post('/api/user/api/v1/show', { id: user.users_id });
    expect(shown.body.data).toMatchObject({ email: `${access}@example.com`, role: 'Again' });

    // From a session the same change goes through.
    expect(
      (
        await admin.put('/api/user/api/v1/update', {
          id: user.users_id,
          email: `${access}.new@example.com`,
        })
      ).status,
    ).toBe(204);
  });
});

describe('routes open to a key', () => {
  // The other way round: a route flagged in its config but not in the table fails here.
  const others = Object.entries(ENDPOINTS)
    .filter(([, e]) => !e.sessionOnly && e.guard !== 'public')
    .map(([key]) => key);

  it('do not answer session_required', async () => {
    const broad = client(t.app, { token: await newKey(admin), lang: 'en' });
    const refused: string[] = [];
    for (const key of others) {
      const res = await call(broad, key);
      if (res.body?.code === 'session_required') refused.push(key);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});

describe('a password change or reset revokes the user’s API keys', () => {
  it('revokes every key on one’s own change; this session stays, the others end', async () => {
    const { access, session } = await member('first-password-1');
    const other = client(t.app, { token: await signIn(t.app, access, 'first-password-1') });
    const key = client(t.app, { token: await newKey(session) });
    expect((await key.post(`${ROBOTS}/index`, {})).status).toBe(200);

    const changed = await session.put(PASSWORD, {
      current_password: 'first-password-1',
      password: 'second-password-2',
      confirm_password: 'second-password-2',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    const refused = await key.post(`${ROBOTS}/index`, {});
    expect(refused.status).toBe(401);
    expect((await session.post(`${AUTH}/me`)).status).toBe(200);
    expect((await other.post(`${AUTH}/me`)).status).toBe(401);
    // A key made after the change works: only what the old password made is gone.
    const fresh = client(t.app, { token: await newKey(session) });
    expect((await fresh.post(`${ROBOTS}/index`, {})).status).toBe(200);
  });

  it('revokes every key on a reset by mailed code', async () => {
    const { user, access, session } = await member('first-password-1');
    const key = client(t.app, { token: await newKey(session) });
    expect((await key.post(`${ROBOTS}/index`, {})).status).toBe(200);

    await client(t.app).post(`${AUTH}/recover-password`, { email: `${access}@example.com` });
    const code = codeFromMail(await t.mailbox.waitFor(`${access}@example.com`));
    const reset = await client(t.app).post(`${AUTH}/reset-password`, {
      code,
      password: 'reset-password-3',
      confirm_password: 'reset-password-3',
    });
    expect(reset.status).toBe(200);
    expect((await key.post(`${ROBOTS}/index`, {})).status).toBe(401);
    expect((await session.post(`${AUTH}/me`)).status).toBe(401);
    const rows = await t.db
      .select({ revoked_at: userApiKeys.revoked_at })
      .from(userApiKeys)
      .where(eq(userApiKeys.users_id, user.users_id));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
  });

  it('revokes the keys of a user whose password an administrator sets', async () => {
    const { user, session } = await member('first-password-1');
    const key = client(t.app, { token: await newKey(session) });
    const set = await admin.put(PASSWORD, {
      users_id: user.users_id,
      password: 'admin-set-password-4',
      confirm_password: 'admin-set-password-4',
    });
    expect(set.status, JSON.stringify(set.body)).toBe(204);
    expect((await key.post(`${ROBOTS}/index`, {})).status).toBe(401);
  });
});
