import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs, sessions } from '../src/db/schema/index.js';
import { FakeClock } from '../src/lib/clock.js';
import { hashToken } from '../src/lib/tokens.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { AUTH, client, createTestApp, signIn, type TestApp } from './helpers/test-app.js';

/** A user's own sessions, listed and ended; their last use stamped once a minute. */

const SESSIONS = `${AUTH}/sessions`;
let t: TestApp;
let clock: FakeClock;
let clientId: number;
let profileId: number;

const as = (token: string) => client(t.app, { token, lang: 'en' });

async function member(access: string) {
  const user = await createUser(t.db, {
    access,
    password: `${access}-password`,
    memberships: [{ clientId, profileId }],
  });
  return { user, sign: () => signIn(t.app, access, `${access}-password`) };
}

async function lastUsedOf(token: string) {
  const [row] = await t.db
    .select({ last_used_at: sessions.last_used_at })
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(token)));
  return row?.last_used_at ?? null;
}

beforeAll(async () => {
  clock = new FakeClock(new Date());
  t = await createTestApp({ clock });
  clientId = (await findClient(t.db, 'Default')).rota_clients_id;
  profileId = (await createProfile(t.db, clientId, 'Session users', ['ROBOS.LIST'])).profiles_id;
}, 60_000);
afterAll(() => t.close());

describe('the caller’s sessions', () => {
  it('lists live sessions, this one first, then newest first; answers no token', async () => {
    const m = await member('sess.anna');
    const first = await m.sign();
    const second = await m.sign();
    const ended = await m.sign();
    await as(ended).post(`${AUTH}/logout`);

    const res = await as(second).post(`${SESSIONS}/index`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const [newest, oldest] = res.body.data;
    expect(newest).toMatchObject({ current: true, method: 'password', ip: '127.0.0.1' });
    expect(oldest.current).toBe(false);
    expect(newest.sessions_id).toBeGreaterThan(oldest.sessions_id);
    expect(Object.keys(newest).sort()).toEqual(
      [
        'created_at',
        'current',
        'expires_at',
        'ip',
        'last_used_at',
        'method',
        'sessions_id',
        'user_agent',
      ].sort(),
    );
    const answered = JSON.stringify(res.body);
    for (const token of [first, second, ended]) {
      expect(answered).not.toContain(token);
      expect(answered).not.toContain(hashToken(token));
    }
    // Only the caller's own.
    const other = await member('sess.other');
    await other.sign();
    const again = await as(first).post(`${SESSIONS}/index`);
    expect(again.body.data.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
    expect(again.body.meta).toEqual({ total: 2, current_page: 1, per_page: 20 });
  });

  it('pages many sessions: this one first on page 1, the others newest first, none twice', async () => {
    const m = await member('sess.script');
    const tokens: string[] = [];
    for (let i = 0; i < 7; i++) tokens.push(await m.sign());
    // An older session asks: it leads page 1 although six are newer.
    const asker = as(tokens[2]!);
    const page = async (n: number) => {
      const res = await asker.post(`${SESSIONS}/index`, { page: n, per_page: 3 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { data: { sessions_id: number; current: boolean }[]; meta: object };
    };
    const pages = [await page(1), await page(2), await page(3)];
    expect(pages.map((p) => p.meta)).toEqual(
      [1, 2, 3].map((n) => ({ total: 7, current_page: n, per_page: 3 })),
    );
    const listed = pages.flatMap((p) => p.data);
    expect(listed.map((s) => s.current)).toEqual([true, false, false, false, false, false, false]);
    const others = listed.slice(1).map((s) => s.sessions_id);
    expect(others).toEqual([...others].sort((a, b) => b - a));
    expect(new Set(listed.map((s) => s.sessions_id)).size).toBe(7);
    // Past the end: no row, the total still told.
    expect((await page(9)).meta).toEqual({ total: 7, current_page: 9, per_page: 3 });
    // Bad paging is a field error, not a 500.
    const bad = await asker.post(`${SESSIONS}/index`, { page: 0, per_page: 5000 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'page',
      'per_page',
    ]);
  });

  it('revokes one of one’s sessions; another user’s id is 404', async () => {
    const m = await member('sess.bruno');
    const keep = await m.sign();
    const drop = await m.sign();
    const listed = await as(keep).post(`${SESSIONS}/index`);
    const target = listed.body.data.find((s: { current: boolean }) => !s.current);

    const stranger = await member('sess.stranger');
    const strangerToken = await stranger.sign();
    const foreign = await as(strangerToken).post(`${SESSIONS}/revoke`, {
      id: target.sessions_id,
    });
    expect(foreign.status).toBe(404);
    expect((await as(drop).post(`${AUTH}/me`)).status).toBe(200);

    const res = await as(keep).post(`${SESSIONS}/revoke`, { id: target.sessions_id });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Session ended');
    expect((await as(drop).post(`${AUTH}/me`)).status).toBe(401);
    expect((await as(keep).post(`${AUTH}/me`)).status).toBe(200);
    expect((await as(keep).post(`${SESSIONS}/revoke`, { id: target.sessions_id })).status).toBe(
      404,
    );
    const [record] = await t.db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity_id, String(target.sessions_id)),
          eq(auditLogs.action, 'session_revoke'),
        ),
      );
    expect(record).toMatchObject({
      action: 'session_revoke',
      entity: 'session',
      users_id: m.user.users_id,
    });
  });

  it('signs out everywhere else', async () => {
    const m = await member('sess.carla');
    const others = [await m.sign(), await m.sign()];
    const current = await m.sign();
    const res = await as(current).post(`${SESSIONS}/revoke-others`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Other sessions ended');
    for (const token of others) expect((await as(token).post(`${AUTH}/me`)).status).toBe(401);
    expect((await as(current).post(`${AUTH}/me`)).status).toBe(200);
    const listed = await as(current).post(`${SESSIONS}/index`);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].current).toBe(true);
  });

  it('stamps last_used_at at most once a minute', async () => {
    const m = await member('sess.dino');
    const token = await m.sign();
    expect(await lastUsedOf(token)).toBeNull();
    const start = clock.now();
    await as(token).post(`${AUTH}/me`);
    expect((await lastUsedOf(token))?.getTime()).toBe(start.getTime());
    clock.advance(30_000);
    await as(token).post(`${AUTH}/me`);
    expect((await lastUsedOf(token))?.getTime()).toBe(start.getTime());
    clock.advance(31_000);
    await as(token).post(`${AUTH}/me`);
    expect((await lastUsedOf(token))?.getTime()).toBe(start.getTime() + 61_000);
    const listed = await as(token).post(`${SESSIONS}/index`);
    expect(listed.body.data[0].last_used_at).toBe(new Date(start.getTime() + 61_000).toISOString());
  });

  it('refuses a personal API key (403)', async () => {
    const m = await member('sess.eve');
    const token = await m.sign();
    const made = await as(token).post('/api/user/apikey/api/v1/create', { name: 'CI' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = as(made.body.data.key);
    expect((await key.post(`${SESSIONS}/index`)).status).toBe(403);
    expect((await key.post(`${SESSIONS}/revoke-others`)).status).toBe(403);
    expect((await key.post(`${SESSIONS}/revoke`, { id: 1 })).status).toBe(403);
  });
});
