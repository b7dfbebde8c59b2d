import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@rota/contract';
import { ConfigError, loadConfig } from '../src/config/env.js';
import { sessions, userClients, users } from '../src/db/schema/index.js';
import { SecretBox } from '../src/lib/secret-box.js';
import { ATTEMPT_COOKIE, openAttempt, sealAttempt } from '../src/modules/oidc/cookies.js';
import {
  discoverOidc,
  oidcSettingsOf,
  type OidcClient,
  type OidcSettings,
} from '../src/modules/oidc/oidc-client.js';
import { auditOf } from './helpers/administration.js';
import { createProfile, createProvisionedClient, createUser } from './helpers/fixtures.js';
import {
  startOidcProvider,
  type OidcAccount,
  type OidcTestProvider,
} from './helpers/oidc-provider.js';
import { setUpTenants } from './helpers/tenants.js';
import {
  ADMIN,
  AUTH,
  PUBLIC_URL,
  client,
  createTestApp,
  signIn,
  type TestApp,
} from './helpers/test-app.js';

const OIDC = `${AUTH}/oidc`;
const MAPPINGS = '/api/user/oidc/mapping/api/v1';
const CLIENT_ID = 'rota-test';
const CLIENT_SECRET = 'rota-test-secret-0123456789';
const REDIRECT_URI = `${PUBLIC_URL}${OIDC}/callback`;

const accounts: Record<string, OidcAccount> = {};
let provider: OidcTestProvider;
let settings: OidcSettings;
let oidc: OidcClient;
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    accounts,
  });
  settings = oidcSettingsOf({
    publicUrl: PUBLIC_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_SCOPES: 'openid email profile',
    OIDC_LABEL: 'Acme SSO',
    OIDC_LOCAL_LOGIN: true,
    OIDC_GROUPS_CLAIM: 'groups',
  })!;
  oidc = await discoverOidc(settings);
  t = await createTestApp({ oidc });
  adminToken = await signIn(t.app, ADMIN.access, ADMIN.password);
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/* ---------- A browser: the Rota app through inject, the provider through fetch ---------- */

type Jar = Map<string, string>;

function setCookiesOf(headers: Record<string, unknown> | Headers): string[] {
  if (headers instanceof Headers) return headers.getSetCookie();
  const value = headers['set-cookie'];
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as string[]) : [String(value)];
}

function remember(jar: Jar, cookies: string[]) {
  for (const cookie of cookies) {
    const pair = cookie.split(';')[0]!;
    const index = pair.indexOf('=');
    jar.set(pair.slice(0, index), pair.slice(index + 1));
  }
}

const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Signs `login` in at the provider's form and answers where it sends the browser back. */
async function throughProvider(authorizationUrl: string, login: string): Promise<string> {
  const jar: Jar = new Map();
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie: cookieHeader(jar) },
    });
    remember(jar, setCookiesOf(res.headers));
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url).href;
      if (next.startsWith(PUBLIC_URL)) return next;
      url = next;
      init = {};
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action)
      throw new Error(`provider: ${res.status} ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
    };
  }
  throw new Error('too many redirects at the provider');
}

async function start(app = t.app, returnTo?: string) {
  const query = returnTo === undefined ? '' : `?return_to=${encodeURIComponent(returnTo)}`;
  const res = await app.inject({ method: 'GET', url: `${OIDC}/start${query}` });
  expect(res.statusCode, res.body).toBe(302);
  const cookie = setCookiesOf(res.headers).find((c) => c.startsWith(`${ATTEMPT_COOKIE}=`))!;
  return { location: String(res.headers.location), cookie, attempt: cookie.split(';')[0]! };
}

async function callback(callbackUrl: string, cookie?: string, app = t.app) {
  const url = new URL(callbackUrl);
  return app.inject({
    method: 'GET',
    url: `${url.pathname}${url.search}`,
    headers: cookie ? { cookie } : {},
  });
}

/** The whole sign-in: start, the provider's form, the callback. */
async function ssoSignIn(login: string, returnTo?: string, app = t.app) {
  const attempt = await start(app, returnTo);
  const back = await throughProvider(attempt.location, login);
  const res = await callback(back, attempt.attempt, app);
  const cookies = setCookiesOf(res.headers);
  const session = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return {
    res,
    location: String(res.headers.location),
    cookies,
    session,
    token: session ? decodeURIComponent(session.split(';')[0]!.split('=')[1]!) : undefined,
  };
}

/* ---------- Fixtures ---------- */

let seq = 0;
async function mappedClient(group: string, permissions = ['ROBOS.LIST'] as const) {
  const { client: c } = await createProvisionedClient(t.db, `SSO client ${++seq}`);
  const profile = await createProfile(t.db, c.rota_clients_id, `SSO profile ${seq}`, [
    ...permissions,
  ]);
  const res = await client(t.app, { token: adminToken }).post(`${MAPPINGS}/create`, {
    claim_value: group,
    rota_clients_id: c.rota_clients_id,
    profiles_id: profile.profiles_id,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { clientId: c.rota_clients_id, profileId: profile.profiles_id, mapping: res.body.data };
}

async function userBySubject(sub: string) {
  const [row] = await t.db.select().from(users).where(eq(users.oidc_subject, sub));
  return row;
}

async function membershipsOf(usersId: number) {
  const rows = await t.db.select().from(userClients).where(eq(userClients.users_id, usersId));
  return rows.map((r) => r.rota_clients_id).sort((a, b) => a - b);
}

/* ---------- Tests ---------- */

describe('OpenID Connect sign-in', () => {
  it('answers its public configuration', async () => {
    const res = await client(t.app).get(`${OIDC}/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: true, label: 'Acme SSO', local_login: true });
  });

  it('starts with PKCE, state and nonce, in a sealed short-lived cookie', async () => {
    const attempt = await start();
    const url = new URL(attempt.location);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(attempt.cookie).toMatch(/HttpOnly/);
    expect(attempt.cookie).toMatch(/SameSite=Lax/);
    expect(attempt.cookie).toMatch(/Path=\/api\/user\/api\/auth\/v1\/oidc/);
    expect(attempt.cookie).toMatch(/Max-Age=600/);
    expect(attempt.cookie).not.toContain(url.searchParams.get('state')!);
  });

  it('creates a mapped user just in time, signs them in, and `me` works with the token', async () => {
    const { clientId } = await mappedClient('jit-ops', ['ROBOS.LIST']);
    accounts['jit-1'] = {
      email: 'Jit.One@Example.com',
      email_verified: true,
      groups: ['jit-ops', 'unmapped-group'],
      given_name: 'Jit',
      family_name: 'One',
    };
    const signed = await ssoSignIn('jit-1');
    expect(signed.res.statusCode).toBe(302);
    expect(signed.location).toBe('/dashboard');
    expect(signed.session).toMatch(/Path=\//);
    expect(signed.session).toMatch(/SameSite=Lax/);
    expect(signed.session).not.toMatch(/HttpOnly/);
    expect(signed.cookies.find((c) => c.startsWith(`${ATTEMPT_COOKIE}=`))).toMatch(/Max-Age=0/);

    const me = await client(t.app, { token: signed.token }).post(`${AUTH}/me`);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: 'jit.one@example.com',
      name: 'Jit',
      last_name: 'One',
      rota_clients_id_selected: clientId,
      permissions: ['ROBOS.LIST'],
    });
    const user = (await userBySubject('jit-1'))!;
    expect(user.access).toBe('jit.one@example.com');
    const [session] = await t.db
      .select()
      .from(sessions)
      .where(eq(sessions.users_id, user.users_id));
    expect(session!.method).toBe('oidc');
    expect((await auditOf(t.db, 'session', session!.sessions_id))[0]!.action).toBe('sign_in');
    expect((await auditOf(t.db, 'user', user.users_id)).map((a) => a.action)).toContain('create');
  });

  it('matches a linked user by sub even after their email changed at the provider', async () => {
    await mappedClient('rename-ops');
    accounts['rename-1'] = {
      email: 'before@example.com',
      email_verified: true,
      groups: ['rename-ops'],
    };
    expect((await ssoSignIn('rename-1')).location).toBe('/dashboard');
    const before = (await userBySubject('rename-1'))!;
    accounts['rename-1'] = { ...accounts['rename-1'], email: 'after@example.com' };
    const again = await ssoSignIn('rename-1');
    expect(again.location).toBe('/dashboard');
    const me = await client(t.app, { token: again.token }).post(`${AUTH}/me`);
    expect(me.body.users_id).toBe(before.users_id);
  });

  it('honours a same-origin return_to and refuses an external one', async () => {
    await mappedClient('return-ops');
    accounts['return-1'] = {
      email: 'return@example.com',
      email_verified: true,
      groups: ['return-ops'],
    };
    expect((await ssoSignIn('return-1', '/robots?page=2')).location).toBe('/robots?page=2');
    expect((await ssoSignIn('return-1', '//evil.example/x')).location).toBe('/dashboard');
    expect((await ssoSignIn('return-1', 'https://evil.example/x')).location).toBe('/dashboard');
    expect((await ssoSignIn('return-1', '/\\evil.example')).location).toBe('/dashboard');
  });

  it('refuses a callback whose cookie belongs to another attempt (state)', async () => {
    await mappedClient('state-ops');
    accounts['state-1'] = {
      email: 'state@example.com',
      email_verified: true,
      groups: ['state-ops'],
    };
    const first = await start();
    const second = await start();
    const back = await throughProvider(second.location, 'state-1');
    const res = await callback(back, first.attempt);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login/sign-in?sso_error=oidc_state');
    expect(setCookiesOf(res.headers).some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
    // No cookie at all (another browser) is the same.
    expect((await callback(back)).headers.location).toBe('/login/sign-in?sso_error=oidc_state');
    expect(await userBySubject('state-1')).toBeUndefined();
  });

  it('lands on the sign-in page with oidc_denied when the user refuses at the provider', async () => {
    const attempt = await start();
    const state = new URL(attempt.location).searchParams.get('state')!;
    const res = await callback(
      `${REDIRECT_URI}?error=access_denied&state=${encodeURIComponent(state)}`,
      attempt.attempt,
    );
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login/sign-in?sso_error=oidc_denied');
  });

  it('refuses an ID token whose nonce is not the attempt’s', async () => {
    await mappedClient('nonce-ops');
    accounts['nonce-1'] = {
      email: 'nonce@example.com',
      email_verified: true,
      groups: ['nonce-ops'],
    };
    const attempt = await start();
    const back = await throughProvider(attempt.location, 'nonce-1');
    const box = new SecretBox(t.secretKey);
    const sealed = decodeURIComponent(attempt.attempt.slice(ATTEMPT_COOKIE.length + 1));
    const opened = openAttempt(box, sealed)!;
    const forged = sealAttempt(box, { ...opened, nonce: 'another-nonce' });
    const res = await callback(back, `${ATTEMPT_COOKIE}=${encodeURIComponent(forged)}`);
    expect(res.headers.location).toBe('/login/sign-in?sso_error=oidc_failed');
    expect(await userBySubject('nonce-1')).toBeUndefined();
  });

  it('refreshes memberships of mapped clients from the groups, leaving unmapped ones alone', async () => {
    const a = await mappedClient('refresh-a');
    const b = await mappedClient('refresh-b');
    const { client: unmapped, adminProfile } = await createProvisionedClient(t.db, 'Unmapped SSO');
    const local = await createUser(t.db, {
      access: 'refresh-local',
      password: 'refresh-password',
      email: 'refresh@example.com',
      memberships: [{ clientId: unmapped.rota_clients_id, profileId: adminProfile.profiles_id }],
    });
    accounts['refresh-1'] = {
      email: 'refresh@example.com',
      email_verified: true,
      groups: ['refresh-a', 'refresh-b'],
    };
    expect((await ssoSignIn('refresh-1')).location).toBe('/dashboard');
    // Linked by its verified email, and given both mapped clients.
    expect((await userBySubject('refresh-1'))!.users_id).toBe(local.users_id);
    expect(await membershipsOf(local.users_id)).toEqual(
      [a.clientId, b.clientId, unmapped.rota_clients_id].sort((x, y) => x - y),
    );

    accounts['refresh-1'] = { ...accounts['refresh-1']!, groups: ['refresh-a'] };
    expect((await ssoSignIn('refresh-1')).location).toBe('/dashboard');
    expect(await membershipsOf(local.users_id)).toEqual(
      [a.clientId, unmapped.rota_clients_id].sort((x, y) => x - y),
    );
    expect((await auditOf(t.db, 'user_client')).some((e) => e.action === 'delete')).toBe(true);

    // The mapping now gives another profile: the membership follows at the next sign-in.
    const viewer = await createProfile(t.db, a.clientId, 'SSO viewer', ['HISTORIC.LIST']);
    const moved = await client(t.app, { token: adminToken }).put(`${MAPPINGS}/update`, {
      id: a.mapping.oidc_mappings_id,
      claim_value: 'refresh-a',
      rota_clients_id: a.clientId,
      profiles_id: viewer.profiles_id,
    });
    expect(moved.status).toBe(200);
    expect((await ssoSignIn('refresh-1')).location).toBe('/dashboard');
    const rows = await t.db
      .select()
      .from(userClients)
      .where(eq(userClients.users_id, local.users_id));
    expect(rows.find((r) => r.rota_clients_id === a.clientId)!.profiles_id).toBe(
      viewer.profiles_id,
    );
  });

  it('does not link an unverified email to an existing local account', async () => {
    await mappedClient('unverified-ops');
    const local = await createUser(t.db, {
      access: 'unverified-local',
      password: 'unverified-password',
      email: 'unverified@example.com',
      memberships: [],
    });
    accounts['unverified-1'] = {
      email: 'unverified@example.com',
      email_verified: false,
      groups: ['unverified-ops'],
    };
    const signed = await ssoSignIn('unverified-1');
    expect(signed.location).toBe('/login/sign-in?sso_error=oidc_email_unverified');
    expect(signed.session).toBeUndefined();
    const [row] = await t.db.select().from(users).where(eq(users.users_id, local.users_id));
    expect(row!.oidc_subject).toBeNull();
  });

  it('sends an unknown user without a mapped group to the no-access page', async () => {
    accounts['nobody-1'] = {
      email: 'nobody@example.com',
      email_verified: true,
      groups: ['nothing'],
    };
    const signed = await ssoSignIn('nobody-1');
    expect(signed.location).toBe('/login/no-access');
    expect(signed.session).toBeUndefined();
    expect(await userBySubject('nobody-1')).toBeUndefined();
  });

  it('answers 404 oidc_not_configured on an app without a provider', async () => {
    const plain = await createTestApp();
    try {
      expect((await client(plain.app).get(`${OIDC}/config`)).body).toEqual({
        enabled: false,
        label: null,
        local_login: true,
      });
      const res = await client(plain.app).get(`${OIDC}/start`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('oidc_not_configured');
    } finally {
      await plain.close();
    }
  });
});

describe('OpenID Connect group mappings', () => {
  it('are for platform administrators only', async () => {
    const tenants = await setUpTenants(t);
    const as = client(t.app, { token: tenants.otherToken });
    expect((await as.post(`${MAPPINGS}/index`, {})).status).toBe(403);
    expect(
      (
        await as.post(`${MAPPINGS}/create`, {
          claim_value: 'x',
          rota_clients_id: 1,
          profiles_id: 1,
        })
      ).status,
    ).toBe(403);
    expect((await as.post(`${MAPPINGS}/delete`, { id: 1 })).status).toBe(403);
  });

  it('are created, listed, changed and deleted, audited, with the profile of their client', async () => {
    const admin = client(t.app, { token: adminToken });
    const { client: c, adminProfile } = await createProvisionedClient(t.db, 'Mapping CRUD');
    const { client: other, adminProfile: otherProfile } = await createProvisionedClient(
      t.db,
      'Mapping CRUD other',
    );
    const foreign = await admin.post(`${MAPPINGS}/create`, {
      claim_value: 'crud-group',
      rota_clients_id: c.rota_clients_id,
      profiles_id: otherProfile.profiles_id,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.map((e: { field: string }) => e.field)).toEqual(['profiles_id']);

    const created = await admin.post(`${MAPPINGS}/create`, {
      claim_value: 'crud-group',
      rota_clients_id: c.rota_clients_id,
      profiles_id: adminProfile.profiles_id,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      claim_value: 'crud-group',
      client_name: 'Mapping CRUD',
      profile_name: adminProfile.name,
    });
    const id = created.body.data.oidc_mappings_id;
    const duplicate = await admin.post(`${MAPPINGS}/create`, {
      claim_value: 'crud-group',
      rota_clients_id: c.rota_clients_id,
      profiles_id: adminProfile.profiles_id,
    });
    expect(duplicate.status).toBe(409);

    const listed = await admin.post(`${MAPPINGS}/index`, { rota_clients_id: c.rota_clients_id });
    expect(listed.body.data.map((m: { oidc_mappings_id: number }) => m.oidc_mappings_id)).toEqual([
      id,
    ]);

    const moved = await admin.put(`${MAPPINGS}/update`, {
      id,
      claim_value: 'crud-group-2',
      rota_clients_id: other.rota_clients_id,
      profiles_id: otherProfile.profiles_id,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const deleted = await admin.post(`${MAPPINGS}/delete`, { id });
    expect(deleted.status).toBe(200);
    expect((await admin.post(`${MAPPINGS}/delete`, { id })).status).toBe(404);
    expect((await auditOf(t.db, 'oidc_mapping', id)).map((a) => a.action)).toEqual([
      'delete',
      'update',
      'create',
    ]);
  });
});

describe('OIDC_LOCAL_LOGIN=false', () => {
  it('refuses the password form to a normal user, not to a platform administrator', async () => {
    const strict = await createTestApp({
      oidc: await discoverOidc({ ...settings, localLogin: false }),
    });
    try {
      const def = await createProvisionedClient(strict.db, 'Local login');
      await createUser(strict.db, {
        access: 'local-user',
        password: 'local-password',
        memberships: [
          { clientId: def.client.rota_clients_id, profileId: def.adminProfile.profiles_id },
        ],
      });
      const refused = await client(strict.app).post(`${AUTH}/session`, {
        access: 'local-user',
        password: 'local-password',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('local_login_disabled');
      const admin = await client(strict.app).post(`${AUTH}/session`, {
        access: ADMIN.access,
        password: ADMIN.password,
      });
      expect(admin.status).toBe(200);
      expect((await client(strict.app).get(`${OIDC}/config`)).body.local_login).toBe(false);
    } finally {
      await strict.close();
    }
  });
});

describe('OIDC configuration', () => {
  it('stops the boot with one line naming OIDC_ISSUER when discovery fails', async () => {
    const dead = await startOidcProvider({
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      redirectUris: [REDIRECT_URI],
      accounts: {},
    });
    const issuer = dead.issuer;
    await dead.close();
    await expect(discoverOidc({ ...settings, issuer })).rejects.toThrow(
      new RegExp(`^OIDC_ISSUER: discovery at ${issuer}/ failed: `),
    );
  });

  it('lists a missing client id and public address together with other bad variables', () => {
    let error: unknown;
    try {
      loadConfig({ OIDC_ISSUER: 'https://id.example.com', PORT: 'x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('OIDC_CLIENT_ID: required when OIDC_ISSUER is set');
    expect(problems).toContain('PUBLIC_URL: required when OIDC_ISSUER is set');
  });
});
