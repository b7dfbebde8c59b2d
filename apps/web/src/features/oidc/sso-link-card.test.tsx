// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Language, OidcLinkStatus, OidcPublicConfig } from '@rota/contract';
import { setToken } from '../../lib/session';
import { makeUser } from '../../../test/fixtures';
import { mockFetch, type MockCall, type MockReply } from '../../../test/http-mock';
import { callsTo } from '../../../test/operations-fixtures';
import { renderWithRouter, resetEnvironment } from '../../../test/render';
import { setProviderNavigator } from './api/link';

/**
 * My account's single sign-on card: "Link single sign-on" starts the link mode (a call with the
 * session, then the provider's page); back with `?sso=linked` or `?sso_error=<code>`; unlinking
 * asks for the password.
 */
const ON: OidcPublicConfig = { enabled: true, label: 'Keycloak', local_login: true };
const LINK = '/user/api/auth/v1/oidc/link';
const NOT_LINKED: OidcLinkStatus = { linked: false, linked_at: null };
const LINKED: OidcLinkStatus = { linked: true, linked_at: '2026-11-20T12:00:00.000Z' };

const TEXT = {
  pt: {
    title: 'Login único',
    link: 'Vincular login único',
    unlink: 'Desvincular',
    notLinked: 'Ainda não vinculado.',
    linked: /^Vinculado a Keycloak desde 20\/11\/2026/,
    linkedNow: 'Login único vinculado: agora você pode entrar com Keycloak.',
    taken: 'Esta identidade de login único já está vinculada a outra conta.',
    dialog: 'Desvincular o login único?',
    password: 'Senha',
    wrong: 'A senha atual não está correta',
  },
  en: {
    title: 'Single sign-on',
    link: 'Link single sign-on',
    unlink: 'Unlink',
    notLinked: 'Not linked yet.',
    linked: /^Linked to Keycloak since /,
    linkedNow: 'Single sign-on is linked: you can now sign in with Keycloak.',
    taken: 'This single sign-on identity is already linked to another account.',
    dialog: 'Unlink single sign-on?',
    password: 'Password',
    wrong: 'The current password is not correct',
  },
} as const;

async function openAccount(
  lang: Language,
  options: {
    path?: string;
    oidc?: OidcPublicConfig;
    status?: () => OidcLinkStatus;
    handler?: (call: MockCall) => MockReply | undefined;
  } = {},
) {
  await resetEnvironment(lang);
  setToken('token');
  const { calls } = mockFetch(
    (call) => {
      if (call.url.endsWith('/user/api/auth/v1/me')) return { status: 200, body: makeUser() };
      const custom = options.handler?.(call);
      if (custom) return custom;
      if (call.url.endsWith(LINK)) {
        return { status: 200, body: options.status?.() ?? NOT_LINKED };
      }
      if (call.url.includes('/alert/')) return { status: 200, body: { data: [], meta: {} } };
      throw new Error(`unexpected API call: ${call.method} ${call.url}`);
    },
    { oidcConfig: options.oidc ?? ON },
  );
  const view = renderWithRouter({ path: options.path ?? '/account' });
  await screen.findByRole(
    'heading',
    { level: 1, name: /Minha conta|My account/ },
    { timeout: 15_000 },
  );
  return { ...view, calls };
}

afterEach(() => {
  setProviderNavigator((url) => window.location.assign(url));
});

describe.each(['pt', 'en'] as const)(
  'My account: single sign-on (%s)',
  { timeout: 20_000 },
  (lang) => {
    const text = TEXT[lang];

    it('"Link single sign-on" starts the link mode with the session, then goes to the provider', async () => {
      const left: string[] = [];
      setProviderNavigator((url) => left.push(url));
      const { user, calls } = await openAccount(lang, {
        handler: (call) =>
          call.url.endsWith(`${LINK}/start`)
            ? { status: 200, body: { url: 'http://idp.example/authorize?state=s' } }
            : undefined,
      });
      const card = (await screen.findByRole('heading', { name: text.title, level: 2 })).closest(
        '.mantine-Paper-root',
      ) as HTMLElement;
      expect(await within(card).findByText(text.notLinked)).toBeInTheDocument();
      await user.click(within(card).getByRole('button', { name: text.link }));
      await waitFor(() => expect(left).toEqual(['http://idp.example/authorize?state=s']));
      const [start] = callsTo(calls, `${LINK}/start`);
      expect(start?.method).toBe('POST');
      expect(start?.headers.get('authorization')).toBe('Bearer token');
    });

    it('says the link worked when the provider sent the browser back, or why it did not', async () => {
      await openAccount(lang, { path: '/account?sso=linked', status: () => LINKED });
      expect(await screen.findByText(text.linkedNow)).toBeInTheDocument();
      expect(screen.getByText(text.linked)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: text.unlink })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: text.link })).toBeNull();

      await openAccount(lang, { path: '/account?sso_error=oidc_identity_taken' });
      expect(await screen.findByText(text.taken)).toBeInTheDocument();
      expect(await screen.findByRole('button', { name: text.link })).toBeInTheDocument();
    });

    it('unlinks with the password; a wrong one is said under the field', async () => {
      let linked = true;
      let answered = false;
      const { user, calls } = await openAccount(lang, {
        status: () => (linked ? LINKED : NOT_LINKED),
        handler: (call) => {
          if (!call.url.endsWith(`${LINK}/delete`)) return undefined;
          if (!answered) {
            answered = true;
            return {
              status: 400,
              body: {
                code: 'invalid_input',
                message: 'x',
                errors: [{ field: 'password', message: text.wrong }],
              },
            };
          }
          linked = false;
          return { status: 200, body: { message: 'ok' } };
        },
      });
      await user.click(await screen.findByRole('button', { name: text.unlink }));
      const dialog = await screen.findByRole('dialog', { name: text.dialog });
      await user.type(within(dialog).getByLabelText(text.password), 'not-it');
      await user.click(within(dialog).getByRole('button', { name: text.unlink }));
      expect(await within(dialog).findByText(text.wrong)).toBeInTheDocument();
      await user.clear(within(dialog).getByLabelText(text.password));
      await user.type(within(dialog).getByLabelText(text.password), 'right-password');
      await user.click(within(dialog).getByRole('button', { name: text.unlink }));
      expect(await screen.findByRole('button', { name: text.link })).toBeInTheDocument();
      expect(callsTo(calls, `${LINK}/delete`).map((c) => c.body)).toEqual([
        { password: 'not-it' },
        { password: 'right-password' },
      ]);
    });

    it('is not shown when the server has no provider', async () => {
      const { calls } = await openAccount(lang, { oidc: { ...ON, enabled: false } });
      expect(screen.getByRole('heading', { level: 2, name: /Senha|Password/ })).toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: text.title, level: 2 })).toBeNull();
      expect(callsTo(calls, LINK)).toHaveLength(0);
    });
  },
);
