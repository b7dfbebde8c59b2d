import { expect, test, type Page } from '@playwright/test';
import {
  startOidcProvider,
  type OidcTestProvider,
} from '../apps/server/test/helpers/oidc-provider';
import { E2E_ADMIN_PASSWORD } from './fixtures/constants';
import {
  OIDC_REDIRECT_URI,
  OIDC_URL,
  adminApi,
  startOidcRota,
  type RotaServer,
} from './fixtures/oidc-server';

/**
 * Single sign-on: a real OpenID provider (oidc-provider) on loopback and a second Rota
 * server configured for it, local sign-in off. A person signs in at the provider's page and lands
 * on the dashboard in the client and with the permissions their group is mapped to.
 */

const CLIENT_ID = 'rota-e2e';
const CLIENT_SECRET = 'rota-e2e-secret-that-is-long-enough';
const LABEL = 'Acme ID';

let provider: OidcTestProvider;
let rota: RotaServer;
let northwindId: number;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  provider = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [OIDC_REDIRECT_URI],
    accounts: {
      ana: {
        email: 'ana@acme.example',
        email_verified: true,
        groups: ['rota-ops'],
        given_name: 'Ana',
        family_name: 'Lima',
      },
      john: {
        email: 'john@acme.example',
        email_verified: true,
        groups: ['rota-ops', 'marketing'],
        given_name: 'John',
        family_name: 'Smith',
      },
      bob: { email: 'bob@acme.example', email_verified: true, groups: ['marketing'], name: 'Bob' },
    },
  });
  rota = await startOidcRota({
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_LABEL: LABEL,
    OIDC_LOCAL_LOGIN: 'false',
  });

  // The platform administrator maps the group to a client of its own and a narrow profile.
  const api = await adminApi(rota.url);
  const me = await api<{ users_id: number }>('POST', '/user/api/auth/v1/me', {});
  const client = await api<{ data: { rota_clients_id: number } }>(
    'POST',
    '/rota/client/api/v1/create',
    { name: 'Northwind' },
  );
  northwindId = client.data.rota_clients_id;
  await api('PUT', '/user/api/v1/client_select', {
    users_id: me.users_id,
    rota_clients_id_selected: northwindId,
  });
  const profile = await api<{ data: { profiles_id: number } }>(
    'POST',
    '/user/profile/api/v1/create',
    { name: 'Robot viewers', permissions: ['ROBOS.LIST'] },
  );
  await api('POST', '/user/oidc/mapping/api/v1/create', {
    claim_value: 'rota-ops',
    rota_clients_id: northwindId,
    profiles_id: profile.data.profiles_id,
  });
});

test.afterAll(async () => {
  await rota?.stop();
  await provider?.close();
});

const TEXT = {
  pt: {
    button: `Entrar com ${LABEL}`,
    home: 'Início',
    robots: 'Robôs',
    schedulings: 'Agendamentos',
    configuration: 'Configuração',
    noAccess: 'Sua conta não tem acesso a nenhum cliente.',
  },
  en: {
    button: `Sign in with ${LABEL}`,
    home: 'Home',
    robots: 'Robots',
    schedulings: 'Schedulings',
    configuration: 'Configuration',
    noAccess: 'Your account has no access to any client.',
  },
} as const;

/** The sign-in page of the OIDC server, in the console's language (pt unless switched). */
async function openSignIn(page: Page, lang: 'pt' | 'en', query = '') {
  await page.goto(`${OIDC_URL}/login/sign-in${query}`);
  if (lang === 'en') {
    await page.getByRole('button', { name: 'Idioma' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
  }
}

/** At the provider's own page (its development login form): any password for a known login. */
async function signInAtProvider(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

for (const [lang, login] of [
  ['pt', 'ana'],
  ['en', 'john'],
] as const) {
  test(`signs in with the provider and lands on the dashboard in the mapped client, with its profile's permissions (${lang})`, async ({
    page,
  }) => {
    const text = TEXT[lang];
    await openSignIn(page, lang);
    const button = page.getByRole('link', { name: text.button });
    await expect(button).toBeVisible();
    // Local sign-in is off on this server: no form, only the button.
    await expect(page.locator('input[name="access"]')).toBeHidden();

    await button.click();
    await signInAtProvider(page, login);

    await expect(page).toHaveURL(`${OIDC_URL}/dashboard`);
    await expect(page.getByRole('heading', { name: text.home, level: 1 })).toBeVisible();
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: text.robots })).toBeVisible();
    await expect(nav.getByRole('link', { name: text.schedulings })).toHaveCount(0);
    await expect(nav.getByText(text.configuration)).toHaveCount(0);

    // The session is a console session like any other, in the mapped client.
    const cookie = (await page.context().cookies(OIDC_URL)).find(
      (c) => c.name === 'e2e.rota.web.token',
    );
    expect(cookie?.path).toBe('/');
    const me = await page.request.post(`${OIDC_URL}/api/user/api/auth/v1/me`, {
      headers: { Authorization: `Bearer ${cookie!.value}` },
      data: {},
    });
    const user = (await me.json()) as {
      rota_clients_id_selected: number;
      clients: { name: string }[];
      permissions: string[];
    };
    expect(user.rota_clients_id_selected).toBe(northwindId);
    expect(user.clients.map((c) => c.name)).toEqual(['Northwind']);
    expect(user.permissions).toEqual(['ROBOS.LIST']);

    // The page first asked for comes back after the provider: a second round, already signed in there.
    await page.context().clearCookies({ name: 'e2e.rota.web.token' });
    await page.goto(`${OIDC_URL}/robot`);
    await expect(page).toHaveURL(/\/login\/sign-in\?redirect=%2Frobot$/);
    await page.getByRole('link', { name: text.button }).click();
    await expect(page).toHaveURL(`${OIDC_URL}/robot`);
    await expect(page.getByRole('heading', { name: text.robots, level: 1 })).toBeVisible();
  });

  test(`an account no mapping gives a client lands on the no-access page (${lang})`, async ({
    page,
  }) => {
    await openSignIn(page, lang);
    await page.getByRole('link', { name: TEXT[lang].button }).click();
    await signInAtProvider(page, 'bob');
    await expect(page).toHaveURL(`${OIDC_URL}/login/no-access`);
    await expect(page.getByText(TEXT[lang].noAccess)).toBeVisible();
    const cookies = await page.context().cookies(OIDC_URL);
    expect(cookies.find((c) => c.name === 'e2e.rota.web.token')).toBeUndefined();
  });
}

test('with local sign-in off, ?local=1 still shows the form, and the platform administrator signs in with it', async ({
  page,
}) => {
  await openSignIn(page, 'pt', '?local=1');
  await expect(page.getByRole('link', { name: TEXT.pt.button })).toBeVisible();
  await page.locator('input[name="access"]').fill('admin');
  await page.locator('input[name="password"]').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page).toHaveURL(`${OIDC_URL}/dashboard`);
});
