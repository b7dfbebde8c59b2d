import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, userApiKeys, userClients } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { ADMIN, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/** Personal API keys: a user's bearer secret for one client, with some permissions. */

const API = '/api/user/apikey/api/v1';
const ROBOTS = '/api/rota/robot/api/v1';
let t: TestApp;
let clock: FakeClock;
let admin: ReturnType<typeof client>;
let operator: ReturnType<typeof client>;
let operatorId: number;
let clientId: number;

async function newKey(as: ReturnType<typeof client>, body: Record<string, unknown>) {
  const res = await as.post(`${API}/create`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { user_api_keys_id: number; key: string; key_hint: string };
}

const withKey = (key: string) => client(t.app, { token: key, lang: 'en' });

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({ engine: { loop: false }, clock });
  admin = client(t.app, { token: await signIn(t.app, ADMIN.access, ADMIN.password), lang: 'en' });
  const def = await findClient(t.db, 'Default');
  clientId = def.rota_clients_id;
  const profile = await createProfile(t.db, clientId, 'Operators', ['ROBOS.LIST', 'ROBOS.CREATE']);
  const user = await createUser(t.db, {
    access: 'key.operator',
    password: 'operator-password',
    name: 'Olga',
    last_name: 'Operator',
    memberships: [{ clientId, profileId: profile.profiles_id }],
  });
  operatorId = user.users_id;
  operator = client(t.app, {
    token: await signIn(t.app, 'key.operator', 'operator-password'),
    lang: 'en',
  });
}, 60_000);
afterAll(() => t.close());

describe('personal API keys', () => {
  it('answers the key once and stores only its SHA-256', async () => {
    const key = await newKey(operator, { name: 'CI' });
    expect(key.key).toMatch(/^rota_pat_[\w-]{43}$/);
    expect(key.key_hint).toBe(key.key.slice(-4));
    const [row] = await t.db
      .select()
      .from(userApiKeys)
      .where(eq(userApiKeys.user_api_keys_id, key.user_api_keys_id));
    expect(row!.key_hash).toBe(createHash('sha256').update(key.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(key.key);
    const listed = await operator.post(`${API}/index`, {});
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).not.toHaveProperty('key');
    expect(listed.body.data[0].user_name).toBe('Olga Operator');
    const records = await t.db.select().from(auditLogs).where(eq(auditLogs.entity, 'api_key'));
    expect(JSON.stringify(records)).not.toContain(key.key);
    expect(JSON.stringify(records)).not.toContain(row!.key_hash);
  });

  it('acts with the key’s permissions only; a default key holds all of the user’s', async () => {
    const listOnly = await newKey(operator, { name: 'Reader', permissions: ['ROBOS.LIST'] });
    const reader = withKey(listOnly.key);
    expect((await reader.post(`${ROBOTS}/index`, {})).status).toBe(200);
    const refused = await reader.post(`${ROBOTS}/create`, { name: 'No', executor: 'x' });
    expect(refused.status).toBe(403);

    const full = withKey((await newKey(operator, { name: 'Everything' })).key);
    const made = await full.post(`${ROBOTS}/create`, { name: 'Made by key', executor: 'x' });
    expect(made.status).toBe(201);
    // ... and the audit record names the key.
    const [record] = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity, 'robot'),
          eq(auditLogs.entity_id, String(made.body.data.rota_robots_id)),
        ),
      );
    expect(record).toMatchObject({ users_id: operatorId, api_key_name: 'Everything' });
    const audit = await admin.post('/api/rota/audit/api/v1/index', { entity: 'robot' });
    const listed = audit.body.data.find(
      (r: any) => r.entity_id === String(made.body.data.rota_robots_id),
    );
    expect(listed.api_key_name).toBe('Everything');
  });

  it('refuses a permission the user lacks and a past expiry', async () => {
    const res = await operator.post(`${API}/create`, {
      name: 'Greedy',
      permissions: ['ROBOS.LIST', 'USUARIOS.DELETE'],
      expires_at: new Date(clock.now().getTime() - 1000).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      {
        field: 'permissions.1',
        message: 'You do not hold this permission in the selected client',
      },
      { field: 'expires_at', message: 'Must be in the future' },
    ]);
  });

  it('answers 401 for an expired, a revoked or an unknown key', async () => {
    const expiring = await newKey(operator, {
      name: 'Short',
      expires_at: new Date(clock.now().getTime() + 3600_000).toISOString(),
    });
    expect((await withKey(expiring.key).post(`${ROBOTS}/index`, {})).status).toBe(200);
    clock.advance(3600_000 + 1);
    expect((await withKey(expiring.key).post(`${ROBOTS}/index`, {})).status).toBe(401);

    const revoked = await newKey(operator, { name: 'Revoked' });
    const res = await operator.post(`${API}/revoke`, { id: revoked.user_api_keys_id });
    expect(res.status).toBe(200);
    expect((await withKey(revoked.key).post(`${ROBOTS}/index`, {})).status).toBe(401);
    expect((await withKey('rota_pat_unknown').post(`${ROBOTS}/index`, {})).status).toBe(401);
  });

  it('carries no platform administration, even a platform administrator’s default key', async () => {
    const key = withKey((await newKey(admin, { name: 'Platform' })).key);
    expect((await key.post('/api/user/access-request/api/v1/index', {})).status).toBe(403);
    expect((await admin.post('/api/user/access-request/api/v1/index', {})).status).toBe(200);
  });

  it('lets a key manage no keys, sign out or change the client (403)', async () => {
    const key = withKey((await newKey(operator, { name: 'Limited' })).key);
    expect((await key.post(`${API}/index`, {})).status).toBe(403);
    expect((await key.post(`${API}/create`, { name: 'Child' })).status).toBe(403);
    expect((await key.post('/api/user/api/auth/v1/logout')).status).toBe(403);
    expect(
      (await key.put('/api/user/api/v1/client_select', { rota_clients_id: clientId })).status,
    ).toBe(403);
  });

  it('lets an administrator list and revoke another user’s key; others see 404', async () => {
    const mine = await newKey(operator, { name: 'Admin target' });
    const all = await admin.post(`${API}/index`, { all: true });
    expect(all.status).toBe(200);
    expect(all.body.data.map((k: any) => k.name)).toContain('Admin target');
    expect((await operator.post(`${API}/index`, { all: true })).status).toBe(403);

    const adminKey = await newKey(admin, { name: 'Admin own' });
    const foreign = await operator.post(`${API}/revoke`, { id: adminKey.user_api_keys_id });
    expect(foreign.status).toBe(404);

    const res = await admin.post(`${API}/revoke`, { id: mine.user_api_keys_id });
    expect(res.status).toBe(200);
    expect((await withKey(mine.key).post(`${ROBOTS}/index`, {})).status).toBe(401);
    const [record] = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity, 'api_key'),
          eq(auditLogs.action, 'revoke'),
          eq(auditLogs.entity_id, String(mine.user_api_keys_id)),
        ),
      );
    expect(record).toBeDefined();
  });

  it('writes last_used_at, and stops working once the user leaves the client', async () => {
    const key = await newKey(operator, { name: 'Used' });
    expect((await withKey(key.key).post(`${ROBOTS}/index`, {})).status).toBe(200);
    const [row] = await t.db
      .select()
      .from(userApiKeys)
      .where(eq(userApiKeys.user_api_keys_id, key.user_api_keys_id));
    expect(row!.last_used_at).not.toBeNull();

    await t.db.delete(userClients).where(eq(userClients.users_id, operatorId));
    expect((await withKey(key.key).post(`${ROBOTS}/index`, {})).status).toBe(401);
  });
});
