import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, translateMessage } from '@rota/contract';
import { ConfigError, loadConfig } from '../src/config/env.js';
import { oidcIdentities, sessions, userClients, users } from '../src/db/schema/index.js';
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
async function mappedClient(
  group: string,
  permissions = ['ROBOS.LIST'] as const,
  autoLinkDomains?: string[],
) {
  const { client: c } = await createProvisionedClient(t.db, `SSO client ${++seq}`);
  const profile = await createProfile(t.db, c.rota_clients_id, `SSO profile ${seq}`, [
    ...permissions,
  ]);
  const res = await client(t.app, { token: adminToken }).post(`${MAPPINGS}/create`, {
    claim_value: group,
    rota_clients_id: c.rota_clients_id,
    profiles_id: profile.profiles_id,
    ...(autoLinkDomains ? { auto_link_domains: autoLinkDomains } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { clientId: c.rota_clients_id, profileId: profile.profiles_id, mapping: res.body.data };
}

async function userBySubject(sub: string) {
  const [row] = await t.db
    .select({ user: users })
    .from(oidcIdentities)
    .innerJoin(users, eq(users.users_id, oidcIdentities.users_id))
    .where(eq(oidcIdentities.subject, sub));
  return row?.user;
}

async function identityOf(usersId: number) {
  const [row] = await t.db
    .select()
    .from(oidcIdentities)
    .where(eq(oidcIdentities.users_id, usersId));
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
    // The administrator lets verified addresses of the domain link: the local account is taken.
    const a = await mappedClient('refresh-a', ['ROBOS.LIST'], ['refresh.example']);
    const b = await mappedClient('refresh-b');
    const { client: unmapped, adminProfile } = await createProvisionedClient(t.db, 'Unmapped SSO');
    const local = await createUser(t.db, {
      access: 'refresh-local',
      password: 'refresh-password',
      email: 'refresh@refresh.example',
      memberships: [{ clientId: unmapped.rota_clients_id, profileId: adminProfile.profiles_id }],
    });
    accounts['refresh-1'] = {
      email: 'refresh@refresh.example',
      email_verified: true,
      groups: ['refresh-a', 'refresh-b'],
    };
    expect((await ssoSignIn('refresh-1')).location).toBe('/dashboard');
    // Linked by its verified email on an allowed domain, and given both mapped clients.
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

  it('does not link an unverified email to an existing local account, even on an allowed domain', async () => {
    await mappedClient('unverified-ops', ['ROBOS.LIST'], ['unverified.example']);
    const local = await createUser(t.db, {
      access: 'unverified-local',
      password: 'unverified-password',
      email: 'unverified@unverified.example',
      memberships: [],
    });
    accounts['unverified-1'] = {
      email: 'unverified@unverified.example',
      email_verified: false,
      groups: ['unverified-ops'],
    };
    const signed = await ssoSignIn('unverified-1');
    expect(signed.location).toBe('/login/sign-in?sso_error=oidc_email_unverified');
    expect(signed.session).toBeUndefined();
    expect(await identityOf(local.users_id)).toBeUndefined();
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

/* ---------- Linking identities to existing accounts ---------- */

/** A local account with a password and a membership, signed in with it. */
async function localAccount(access: string, email: string) {
  const { client: c, adminProfile } = await createProvisionedClient(t.db, `Local ${access}`);
  const password = `${access}-password-1`;
  const user = await createUser(t.db, {
    access,
    password,
    email,
    memberships: [{ clientId: c.rota_clients_id, profileId: adminProfile.profiles_id }],
  });
  return { user, password, token: await signIn(t.app, access, password) };
}

/** Linking from My account: the call with the session, the provider's form, the callback. */
async function linkFromAccount(token: string, login: string, sessionCookie = token) {
  const started = await client(t.app, { token }).post(`${OIDC}/link/start`);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const cookie = setCookiesOf(started.headers).find((c) => c.startsWith(`${ATTEMPT_COOKIE}=`))!;
  expect(cookie).toMatch(/HttpOnly/);
  const back = await throughProvider(started.body.url, login);
  const res = await callback(
    back,
    `${cookie.split(';')[0]!}; ${SESSION_COOKIE}=${encodeURIComponent(sessionCookie)}`,
  );
  expect(res.statusCode).toBe(302);
  expect(setCookiesOf(res.headers).some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  return String(res.headers.location);
}

async function asPlatformAdmin(usersId: number) {
  await t.db.update(users).set({ is_platform_admin: true }).where(eq(users.users_id, usersId));
}

describe('Linking a single sign-on identity to an existing account', () => {
  it('refuses a provider account carrying the platform administrator’s verified email', async () => {
    await mappedClient('takeover-ops');
    accounts['takeover-1'] = {
      email: ADMIN.email,
      email_verified: true,
      groups: ['takeover-ops'],
      name: 'Not the admin',
    };
    const signed = await ssoSignIn('takeover-1');
    expect(signed.location).toBe('/login/sign-in?sso_error=oidc_link_required');
    expect(signed.session).toBeUndefined();
    expect(await userBySubject('takeover-1')).toBeUndefined();
    const [admin] = await t.db.select().from(users).where(eq(users.access, ADMIN.access));
    expect(await identityOf(admin!.users_id)).toBeUndefined();
    // The same with the address written in capitals.
    accounts['takeover-1'] = { ...accounts['takeover-1']!, email: ADMIN.email.toUpperCase() };
    expect((await ssoSignIn('takeover-1')).location).toBe(
      '/login/sign-in?sso_error=oidc_link_required',
    );
    // The message tells the owner what to do, in their language.
    expect(translateMessage('en', 'oidc_link_required')).toMatch(/password.*My account/);
    expect(translateMessage('pt', 'oidc_link_required')).toMatch(/senha.*Minha conta/);
  });

  it('refuses an unlinked identity whose domain no mapping of its groups allows', async () => {
    // Another group's mapping allows the domain: it does not count for this identity.
    await mappedClient('nolink-other', ['ROBOS.LIST'], ['nolink.example']);
    await mappedClient('nolink-ops', ['ROBOS.LIST'], ['elsewhere.example']);
    const local = await localAccount('nolink-local', 'carol@nolink.example');
    accounts['nolink-1'] = {
      email: 'carol@nolink.example',
      email_verified: true,
      groups: ['nolink-ops'],
    };
    expect((await ssoSignIn('nolink-1')).location).toBe(
      '/login/sign-in?sso_error=oidc_link_required',
    );
    // Exact domains: a subdomain of an allowed one is not allowed.
    await mappedClient('nolink-sub', ['ROBOS.LIST'], ['example.org']);
    await localAccount('nolink-sub-local', 'dan@eu.example.org');
    accounts['nolink-2'] = {
      email: 'dan@eu.example.org',
      email_verified: true,
      groups: ['nolink-sub'],
    };
    expect((await ssoSignIn('nolink-2')).location).toBe(
      '/login/sign-in?sso_error=oidc_link_required',
    );
    expect(await identityOf(local.user.users_id)).toBeUndefined();
  });

  it('links automatically on an allowed domain for a normal user, never for a platform administrator', async () => {
    const { clientId } = await mappedClient('auto-ops', ['ROBOS.LIST'], ['auto.example']);
    const normal = await localAccount('auto-normal', 'erin@auto.example');
    accounts['auto-1'] = { email: 'Erin@Auto.example', email_verified: true, groups: ['auto-ops'] };
    const signed = await ssoSignIn('auto-1');
    expect(signed.location).toBe('/dashboard');
    const me = await client(t.app, { token: signed.token }).post(`${AUTH}/me`);
    expect(me.body.users_id).toBe(normal.user.users_id);
    const identity = (await identityOf(normal.user.users_id))!;
    expect(identity).toMatchObject({ issuer: provider.issuer, subject: 'auto-1' });
    const [record] = await auditOf(t.db, 'oidc_identity', identity.oidc_identities_id);
    expect(record).toMatchObject({
      action: 'create',
      rota_clients_id: clientId,
      users_id: normal.user.users_id,
      after: { users_id: normal.user.users_id, subject: 'auto-1', via: 'auto' },
    });

    const boss = await localAccount('auto-boss', 'boss@auto.example');
    await asPlatformAdmin(boss.user.users_id);
    accounts['auto-2'] = { email: 'boss@auto.example', email_verified: true, groups: ['auto-ops'] };
    const refused = await ssoSignIn('auto-2');
    expect(refused.location).toBe('/login/sign-in?sso_error=oidc_link_required');
    expect(refused.session).toBeUndefined();
    expect(await identityOf(boss.user.users_id)).toBeUndefined();
    expect(await userBySubject('auto-2')).toBeUndefined();
  });

  it('links from My account, then single sign-on signs in as that user', async () => {
    await mappedClient('own-ops');
    const local = await localAccount('own-local', 'frank@own.example');
    const as = client(t.app, { token: local.token });
    expect((await as.get(`${OIDC}/link`)).body).toEqual({ linked: false, linked_at: null });
    // The provider's address need not be the account's, nor verified: the owner proved both.
    accounts['own-1'] = {
      email: 'frank.other@provider.example',
      email_verified: false,
      groups: ['own-ops'],
    };
    expect(await linkFromAccount(local.token, 'own-1')).toBe('/account?sso=linked');
    const status = await as.get(`${OIDC}/link`);
    expect(status.body.linked).toBe(true);
    expect(Date.parse(status.body.linked_at)).not.toBeNaN();
    const identity = (await identityOf(local.user.users_id))!;
    expect(identity).toMatchObject({ issuer: provider.issuer, subject: 'own-1' });
    const [record] = await auditOf(t.db, 'oidc_identity', identity.oidc_identities_id);
    expect(record).toMatchObject({
      action: 'create',
      users_id: local.user.users_id,
      after: { via: 'account', subject: 'own-1' },
    });
    // Again: nothing changes, it is linked already.
    expect(await linkFromAccount(local.token, 'own-1')).toBe('/account?sso=linked');

    const signed = await ssoSignIn('own-1');
    expect(signed.location).toBe('/dashboard');
    const me = await client(t.app, { token: signed.token }).post(`${AUTH}/me`);
    expect(me.body.users_id).toBe(local.user.users_id);
  });

  it('lets a platform administrator link their own account from My account', async () => {
    const boss = await localAccount('own-boss', 'grace@own-boss.example');
    await asPlatformAdmin(boss.user.users_id);
    accounts['own-boss-1'] = { email: 'grace@provider.example', email_verified: true };
    expect(await linkFromAccount(boss.token, 'own-boss-1')).toBe('/account?sso=linked');
    const signed = await ssoSignIn('own-boss-1');
    const me = await client(t.app, { token: signed.token }).post(`${AUTH}/me`);
    expect(me.body.users_id).toBe(boss.user.users_id);
  });

  it('refuses to link an identity already linked to another user, or a second identity', async () => {
    await mappedClient('taken-ops');
    const first = await localAccount('taken-first', 'henry@taken.example');
    const second = await localAccount('taken-second', 'iris@taken.example');
    accounts['taken-1'] = { email: 'henry@provider.example', email_verified: true };
    accounts['taken-2'] = { email: 'iris@provider.example', email_verified: true };
    expect(await linkFromAccount(first.token, 'taken-1')).toBe('/account?sso=linked');

    expect(await linkFromAccount(second.token, 'taken-1')).toBe(
      '/account?sso_error=oidc_identity_taken',
    );
    expect(await identityOf(second.user.users_id)).toBeUndefined();
    expect((await identityOf(first.user.users_id))!.subject).toBe('taken-1');

    expect(await linkFromAccount(first.token, 'taken-2')).toBe(
      '/account?sso_error=oidc_already_linked',
    );
    expect((await identityOf(first.user.users_id))!.subject).toBe('taken-1');
    expect(await userBySubject('taken-2')).toBeUndefined();
  });

  it('links only while the session that started it is still the browser’s', async () => {
    const local = await localAccount('session-local', 'jane@session.example');
    accounts['session-1'] = { email: 'jane@provider.example', email_verified: true };
    // The callback arrives with another session's cookie, or with none that is alive.
    const other = await signIn(t.app, 'session-local', local.password);
    expect(await linkFromAccount(local.token, 'session-1', other)).toBe(
      '/account?sso_error=oidc_link_session',
    );
    expect(await linkFromAccount(local.token, 'session-1', 'not-a-session')).toBe(
      '/account?sso_error=oidc_link_session',
    );
    expect(await identityOf(local.user.users_id)).toBeUndefined();
    // Starting needs a session: no token, 401; a personal API key, refused.
    expect((await client(t.app).post(`${OIDC}/link/start`)).status).toBe(401);
  });

  it('unlinks with the password, audited; a wrong one changes nothing', async () => {
    const local = await localAccount('unlink-local', 'kim@unlink.example');
    accounts['unlink-1'] = { email: 'kim@provider.example', email_verified: true };
    expect(await linkFromAccount(local.token, 'unlink-1')).toBe('/account?sso=linked');
    const identity = (await identityOf(local.user.users_id))!;
    const as = client(t.app, { token: local.token, lang: 'pt' });

    const missing = await as.post(`${OIDC}/link/delete`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'password', message: 'Senha obrigatória' }]);
    const wrong = await as.post(`${OIDC}/link/delete`, { password: 'not-it' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([
      { field: 'password', message: 'A senha atual não está correta' },
    ]);
    expect(await identityOf(local.user.users_id)).toBeDefined();

    const done = await as.post(`${OIDC}/link/delete`, { password: local.password });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toBe('Login único desvinculado');
    expect(await identityOf(local.user.users_id)).toBeUndefined();
    expect((await as.get(`${OIDC}/link`)).body.linked).toBe(false);
    const [record] = await auditOf(t.db, 'oidc_identity', identity.oidc_identities_id);
    expect(record).toMatchObject({
      action: 'delete',
      users_id: local.user.users_id,
      before: { users_id: local.user.users_id, subject: 'unlink-1' },
    });
    expect((await as.post(`${OIDC}/link/delete`, { password: local.password })).status).toBe(404);
  });

  it('stops guessing the password at unlinking after a few wrong ones', async () => {
    const local = await localAccount('guess-local', 'lee@guess.example');
    accounts['guess-1'] = { email: 'lee@provider.example', email_verified: true };
    expect(await linkFromAccount(local.token, 'guess-1')).toBe('/account?sso=linked');
    const as = client(t.app, { token: local.token });
    for (let i = 0; i < 5; i++) {
      expect((await as.post(`${OIDC}/link/delete`, { password: `wrong-${i}` })).status).toBe(400);
    }
    const throttled = await as.post(`${OIDC}/link/delete`, { password: local.password });
    expect(throttled.status).toBe(429);
    expect(await identityOf(local.user.users_id)).toBeDefined();
  });

  it('claims a link made before issuers were recorded at its next sign-in', async () => {
    await mappedClient('legacy-ops');
    const local = await localAccount('legacy-local', 'max@legacy.example');
    await t.db
      .insert(oidcIdentities)
      .values({ users_id: local.user.users_id, issuer: '', subject: 'legacy-1' });
    accounts['legacy-1'] = { email: 'max@provider.example', email_verified: true };
    const signed = await ssoSignIn('legacy-1');
    const me = await client(t.app, { token: signed.token }).post(`${AUTH}/me`);
    expect(me.body.users_id).toBe(local.user.users_id);
    expect((await identityOf(local.user.users_id))!.issuer).toBe(provider.issuer);
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

  it('keep their automatic-linking domains, lower-case and once each, and refuse a non-domain', async () => {
    const admin = client(t.app, { token: adminToken, lang: 'pt' });
    const { client: c, adminProfile } = await createProvisionedClient(t.db, 'Mapping domains');
    const body = {
      claim_value: 'domains-group',
      rota_clients_id: c.rota_clients_id,
      profiles_id: adminProfile.profiles_id,
    };
    const bad = await admin.post(`${MAPPINGS}/create`, {
      ...body,
      auto_link_domains: ['acme.example', 'not a domain'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'auto_link_domains.1', message: 'Deve ser um domínio, como exemplo.com.br' },
    ]);
    const created = await admin.post(`${MAPPINGS}/create`, {
      ...body,
      auto_link_domains: [' @Acme.Example', 'acme.example', 'xn--bcher-kva.example'],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.auto_link_domains).toEqual(['acme.example', 'xn--bcher-kva.example']);
    const id = created.body.data.oidc_mappings_id;
    // An update without the list empties it: the update is the whole mapping.
    expect((await admin.put(`${MAPPINGS}/update`, { id, ...body })).status).toBe(200);
    const listed = await admin.post(`${MAPPINGS}/index`, { rota_clients_id: c.rota_clients_id });
    expect(listed.body.data[0].auto_link_domains).toEqual([]);
    const [record] = await auditOf(t.db, 'oidc_mapping', id);
    expect(record).toMatchObject({
      action: 'update',
      before: { auto_link_domains: ['acme.example', 'xn--bcher-kva.example'] },
      after: { auto_link_domains: [] },
    });
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

  it('says only an administrator can link, and keeps a normal user from unlinking', async () => {
    const strict = await createTestApp({
      oidc: await discoverOidc({ ...settings, localLogin: false }),
    });
    try {
      const strictAdmin = await signIn(strict.app, ADMIN.access, ADMIN.password);
      const def = await createProvisionedClient(strict.db, 'Strict SSO');
      const profile = await createProfile(strict.db, def.client.rota_clients_id, 'Strict', [
        'ROBOS.LIST',
      ]);
      const mapped = await client(strict.app, { token: strictAdmin }).post(`${MAPPINGS}/create`, {
        claim_value: 'strict-ops',
        rota_clients_id: def.client.rota_clients_id,
        profiles_id: profile.profiles_id,
      });
      expect(mapped.status).toBe(201);
      await createUser(strict.db, {
        access: 'strict-local',
        password: 'strict-password',
        email: 'nina@strict.example',
        memberships: [],
      });
      accounts['strict-1'] = {
        email: 'nina@strict.example',
        email_verified: true,
        groups: ['strict-ops'],
      };
      const refused = await ssoSignIn('strict-1', undefined, strict.app);
      expect(refused.location).toBe('/login/sign-in?sso_error=oidc_link_unavailable');

      // Provisioned at its first sign-in, the account has no password anyone knows.
      accounts['strict-2'] = {
        email: 'omar@strict.example',
        email_verified: true,
        groups: ['strict-ops'],
      };
      const signed = await ssoSignIn('strict-2', undefined, strict.app);
      expect(signed.location).toBe('/dashboard');
      const unlink = await client(strict.app, { token: signed.token }).post(`${OIDC}/link/delete`, {
        password: 'anything',
      });
      expect(unlink.status).toBe(409);
      expect(unlink.body.errors).toEqual([
        {
          field: 'password',
          message:
            'Password sign-in is off on this server: without single sign-on you could not sign in.',
        },
      ]);
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
