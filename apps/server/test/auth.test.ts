import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_SECONDS } from '@rota/contract';
import { passwordResetCodes, sessions, users } from '../src/db/schema/index.js';
import { hashToken } from '../src/lib/tokens.js';
import { createProfile, createUser, findClient } from './helpers/fixtures.js';
import { codeFromMail } from './helpers/mailbox.js';
import {
  ADMIN,
  AUTH,
  client,
  createTestApp,
  PUBLIC_URL,
  signIn,
  type TestApp,
} from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const def = await findClient(t.db, 'Default');
  const readers = await createProfile(t.db, def.rota_clients_id, 'Readers', ['ROBOS.LIST']);
  for (const access of ['maria', 'joao', 'ana', 'pedro', 'carla']) {
    await createUser(t.db, {
      access,
      password: 'secret-password',
      name: access,
      memberships: [{ clientId: def.rota_clients_id, profileId: readers.profiles_id }],
    });
  }
});
afterAll(() => t.close());

describe('POST session', () => {
  it('signs in by access identifier and answers every session field', async () => {
    const res = await client(t.app).post(`${AUTH}/session`, {
      access: 'admin',
      password: ADMIN.password,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'clients',
        'color_scheme',
        'email',
        'group',
        // The account's console preferences, beside the session's fields.
        'language',
        'last_name',
        // Whether the account has a second factor on.
        'mfa_enabled',
        'name',
        'password_change_required',
        'permissions',
        'rota_clients_id_selected',
        'token',
        'users_id',
      ].sort(),
    );
    expect(res.body.email).toBe('admin@localhost');
    expect(res.body.permissions).toContain('USUARIOS.DELETE');
    expect(res.body.permissions).toHaveLength(28);
    expect(res.body.clients).toEqual([
      { rota_clients_id: res.body.rota_clients_id_selected, name: 'Default' },
    ]);
    expect(res.body.token).toMatch(/^[\w-]{43}$/);
  });

  it('signs in by email, case-insensitively', async () => {
    const res = await client(t.app).post(`${AUTH}/session`, {
      access: ' Admin@Localhost ',
      password: ADMIN.password,
    });
    expect(res.status).toBe(200);
  });

  it('keeps only the hash of the token', async () => {
    const token = await signIn(t.app, 'admin', ADMIN.password);
    const rows = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.token_hash, hashToken(token)));
    expect(rows).toHaveLength(1);
    const clear = await t.db.select().from(sessions).where(eq(sessions.token_hash, token));
    expect(clear).toHaveLength(0);
    const ttl = (rows[0]!.expires_at.getTime() - rows[0]!.created_at.getTime()) / 1000;
    expect(Math.abs(ttl - SESSION_TTL_SECONDS)).toBeLessThan(5);
  });

  it('refuses a wrong password with 401 in the caller’s language', async () => {
    const en = await client(t.app, { lang: 'en' }).post(`${AUTH}/session`, {
      access: 'maria',
      password: 'nope',
    });
    expect(en.status).toBe(401);
    expect(en.body).toMatchObject({
      code: 'invalid_credentials',
      message: 'Access or password is not correct',
    });
    const pt = await client(t.app, { lang: 'pt' }).post(`${AUTH}/session`, {
      access: 'maria',
      password: 'nope',
    });
    expect(pt.body.message).toBe('Acesso ou senha incorretos');
  });

  it('answers the same for an unknown user', async () => {
    const res = await client(t.app).post(`${AUTH}/session`, {
      access: 'nobody',
      password: 'whatever1',
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });

  it('lists the field errors for an empty form', async () => {
    const en = await client(t.app, { lang: 'en' }).post(`${AUTH}/session`, {
      access: '',
      password: '',
    });
    expect(en.status).toBe(400);
    expect(en.body.errors).toEqual([
      { field: 'access', message: 'Required acess' },
      { field: 'password', message: 'Required password' },
    ]);
    const pt = await client(t.app, { lang: 'pt' }).post(`${AUTH}/session`, {});
    expect(pt.status).toBe(400);
    expect(pt.body.errors).toEqual([
      { field: 'access', message: 'Acesso obrigatório' },
      { field: 'password', message: 'Senha obrigatória' },
    ]);
  });

  it('slows one account-and-address pair after 5 failures without locking out the others', async () => {
    const c = client(t.app, { ip: '10.0.0.1' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await c.post(`${AUTH}/session`, { access: 'joao', password: `wrong-${i}` })).status,
      ).toBe(401);
    }
    const blocked = await c.post(`${AUTH}/session`, {
      access: 'joao',
      password: 'secret-password',
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('too_many_requests');
    expect(blocked.headers['retry-after']).toBe('30');
    // Through the email too: the budget is the account's.
    expect(
      (await c.post(`${AUTH}/session`, { access: 'joao@example.com', password: 'secret-password' }))
        .status,
    ).toBe(429);
    // Another account from the same address still signs in, and joao from another address.
    expect(
      (await c.post(`${AUTH}/session`, { access: 'ana', password: 'secret-password' })).status,
    ).toBe(200);
    expect(
      (
        await client(t.app, { ip: '10.0.0.4' }).post(`${AUTH}/session`, {
          access: 'joao',
          password: 'secret-password',
        })
      ).status,
    ).toBe(200);
    // The wait passes: joao may sign in again from the first address.
    await t.db.execute(
      sql`update sign_in_throttles set blocked_until = now() - interval '1 second'`,
    );
    expect(
      (await c.post(`${AUTH}/session`, { access: 'joao', password: 'secret-password' })).status,
    ).toBe(200);
  });

  it('throttles one address after 100 failures', async () => {
    const c = client(t.app, { ip: '10.0.0.2' });
    for (let i = 0; i < 100; i++) {
      const res = await c.post(`${AUTH}/session`, {
        access: `ghost${i}`,
        password: 'wrong-password',
      });
      expect(res.status).toBe(401);
    }
    expect(
      (await c.post(`${AUTH}/session`, { access: 'pedro', password: 'secret-password' })).status,
    ).toBe(429);
    expect(
      (
        await client(t.app, { ip: '10.0.0.3' }).post(`${AUTH}/session`, {
          access: 'pedro',
          password: 'secret-password',
        })
      ).status,
    ).toBe(200);
  });
});

describe('me and logout', () => {
  it('answers the user with avatar, and 401 without or after logout', async () => {
    const token = await signIn(t.app, 'maria', 'secret-password');
    const me = await client(t.app, { token }).post(`${AUTH}/me`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'maria', permissions: ['ROBOS.LIST'], avatar: null });
    expect(me.body).not.toHaveProperty('token');

    expect((await client(t.app).post(`${AUTH}/me`)).status).toBe(401);
    expect((await client(t.app, { token: 'forged' }).post(`${AUTH}/me`)).status).toBe(401);

    const out = await client(t.app, { token }).post(`${AUTH}/logout`);
    expect(out.status).toBe(200);
    const after = await client(t.app, { token }).post(`${AUTH}/me`);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });

  it('says the session expired after 8 hours', async () => {
    const token = await signIn(t.app, 'maria', 'secret-password');
    await t.db
      .update(sessions)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(sessions.token_hash, hashToken(token)));
    const res = await client(t.app, { token }).post(`${AUTH}/me`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('session_expired');
  });
});

describe('password recovery', () => {
  it('answers the same for a known and an unknown email, and mails only the known one', async () => {
    const known = await client(t.app).post(`${AUTH}/recover-password`, {
      email: 'ana@example.com',
    });
    const unknown = await client(t.app).post(`${AUTH}/recover-password`, {
      email: 'nobody@example.com',
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const mail = await t.mailbox.waitFor('ana@example.com');
    expect(mail.text).toContain(`${PUBLIC_URL}/login/change-password?code=`);
    expect(t.mailbox.mails.some((m) => m.to === 'nobody@example.com')).toBe(false);
  });

  it('validates the email', async () => {
    const res = await client(t.app, { lang: 'en' }).post(`${AUTH}/recover-password`, {
      email: 'not-an-email',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'email', message: 'Invalid email' }]);
    const empty = await client(t.app, { lang: 'en' }).post(`${AUTH}/recover-password`, {
      email: '',
    });
    expect(empty.body.errors).toEqual([{ field: 'email', message: 'Required email' }]);
  });

  it('checks a code, resets once, ends the sessions, and refuses the code again', async () => {
    const oldToken = await signIn(t.app, 'carla', 'secret-password');
    await client(t.app, { lang: 'pt' }).post(`${AUTH}/recover-password`, {
      email: 'carla@example.com',
    });
    const mail = await t.mailbox.waitFor('carla@example.com');
    expect(mail.subject).toBe('Rota: defina uma nova senha');
    const code = codeFromMail(mail);
    const stored = await t.db
      .select()
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.code_hash, code));
    expect(stored).toHaveLength(0);

    expect((await client(t.app).post(`${AUTH}/check-code`, { code })).status).toBe(200);
    expect((await client(t.app).post(`${AUTH}/check-code`, { code: 'made-up' })).body.code).toBe(
      'code_invalid',
    );

    const mismatch = await client(t.app, { lang: 'en' }).post(`${AUTH}/reset-password`, {
      code,
      password: 'new-password-1',
      confirm_password: 'different-1',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { field: 'confirm_password', message: 'Passwords must match' },
    ]);

    const reset = await client(t.app).post(`${AUTH}/reset-password`, {
      code,
      password: 'new-password-1',
      confirm_password: 'new-password-1',
    });
    expect(reset.status).toBe(200);
    expect((await client(t.app, { token: oldToken }).post(`${AUTH}/me`)).status).toBe(401);
    await signIn(t.app, 'carla', 'new-password-1');

    const again = await client(t.app).post(`${AUTH}/reset-password`, {
      code,
      password: 'other-password-1',
      confirm_password: 'other-password-1',
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('code_invalid');
    expect((await client(t.app).post(`${AUTH}/check-code`, { code })).status).toBe(400);
  });

  it('refuses a code older than 30 minutes, and an older code once a newer one is sent', async () => {
    await client(t.app).post(`${AUTH}/recover-password`, { email: 'pedro@example.com' });
    const first = codeFromMail(await t.mailbox.waitFor('pedro@example.com'));
    t.mailbox.mails.length = 0;
    await client(t.app).post(`${AUTH}/recover-password`, { email: 'pedro@example.com' });
    const second = codeFromMail(await t.mailbox.waitFor('pedro@example.com'));
    expect(second).not.toBe(first);
    expect((await client(t.app).post(`${AUTH}/check-code`, { code: first })).status).toBe(400);
    expect((await client(t.app).post(`${AUTH}/check-code`, { code: second })).status).toBe(200);
    await t.db
      .update(passwordResetCodes)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(passwordResetCodes.code_hash, hashToken(second)));
    expect((await client(t.app).post(`${AUTH}/check-code`, { code: second })).status).toBe(400);
  });

  it('throttles recovery per email and per address', async () => {
    const c = client(t.app, { ip: '10.0.0.9' });
    for (let i = 0; i < 10; i++) {
      expect(
        (await c.post(`${AUTH}/recover-password`, { email: 'flood@example.com' })).status,
      ).toBe(200);
    }
    expect((await c.post(`${AUTH}/recover-password`, { email: 'flood@example.com' })).status).toBe(
      429,
    );
    expect((await c.post(`${AUTH}/recover-password`, { email: 'other@example.com' })).status).toBe(
      200,
    );
  });
});

describe('first sign-in with a password to change', () => {
  it('allows only me, logout and update/password until the password is changed', async () => {
    const def = await findClient(t.db, 'Default');
    const admins = await createProfile(t.db, def.rota_clients_id, 'Admins 2', ['USUARIOS.LIST']);
    await createUser(t.db, {
      access: 'fresh',
      password: 'initial-password',
      password_change_required: true,
      memberships: [{ clientId: def.rota_clients_id, profileId: admins.profiles_id }],
    });
    const token = await signIn(t.app, 'fresh', 'initial-password');
    const c = client(t.app, { token, lang: 'en' });
    expect((await c.post(`${AUTH}/me`)).body.password_change_required).toBe(true);
    const blocked = await c.post('/api/user/profile/api/v1/index', {});
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('password_change_required');

    const wrong = await c.put('/api/user/api/v1/update/password', {
      current_password: 'not-it',
      password: 'brand-new-pass',
      confirm_password: 'brand-new-pass',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { field: 'current_password', message: 'The current password is not correct' },
    ]);

    const short = await c.put('/api/user/api/v1/update/password', {
      current_password: 'initial-password',
      password: 'short',
      confirm_password: 'short',
    });
    expect(short.body.errors).toEqual([
      { field: 'password', message: 'The password must have at least 8 characters' },
    ]);

    const ok = await c.put('/api/user/api/v1/update/password', {
      current_password: 'initial-password',
      password: 'brand-new-pass',
      confirm_password: 'brand-new-pass',
    });
    expect(ok.status).toBe(204);
    expect((await c.post(`${AUTH}/me`)).body.password_change_required).toBe(false);
    expect((await c.post('/api/user/profile/api/v1/index', {})).status).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.access, 'fresh'));
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('brand-new-pass');
  });
});

describe('request access', () => {
  it('records the request and answers the same message', async () => {
    const res = await client(t.app, { lang: 'en' }).post(`${AUTH}/request-access`, {
      name: 'Rita',
      email: 'rita@example.com',
      client_name: 'ACME',
      message: 'Please',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Thank you. An administrator will review your request.');
    const bad = await client(t.app, { lang: 'en' }).post(`${AUTH}/request-access`, {
      name: '',
      email: 'x',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'name',
      'email',
      'client_name',
    ]);
  });
});
