// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { OidcPublicConfig } from '@rota/contract';
import { forbidFetch, mockFetch } from '../../../test/http-mock';
import { renderWithRouter, resetEnvironment } from '../../../test/render';
import en from './locales/en.json';
import pt from './locales/pt.json';
import signInEn from './locales/sign-in/en.json';
import signInPt from './locales/sign-in/pt.json';
import linkEn from './locales/link/en.json';
import linkPt from './locales/link/pt.json';

const ON: OidcPublicConfig = { enabled: true, label: 'Keycloak', local_login: true };
const ONLY_SSO: OidcPublicConfig = { ...ON, local_login: false };

beforeEach(() => {
  window.history.replaceState({}, '', '/login/sign-in');
});

/** The sign-in page, single sign-on answered as `oidcConfig` (off without it); nothing else called. */
async function openSignIn(lang: 'pt' | 'en', path: string, oidcConfig?: OidcPublicConfig) {
  await resetEnvironment(lang);
  const { calls, fetchMock } = mockFetch(
    (call) => {
      throw new Error(`unexpected API call: ${call.method} ${call.url}`);
    },
    { oidcConfig },
  );
  const configAsked = () =>
    fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/oidc/config')).length;
  return { ...renderWithRouter({ path }), calls, configAsked };
}

const SUBMIT = { pt: 'Entrar', en: 'Sign in' } as const;
const BUTTON = { pt: 'Entrar com Keycloak', en: 'Sign in with Keycloak' } as const;

describe.each(['pt', 'en'] as const)('single sign-on on the sign-in page (%s)', (lang) => {
  it('shows "Sign in with <label>" above the local form, going to the start address with the page first asked for', async () => {
    const { configAsked } = await openSignIn(
      lang,
      '/login/sign-in?redirect=%2Frobot%3Fpage%3D2',
      ON,
    );
    const link = await screen.findByRole('link', { name: BUTTON[lang] });
    expect(link).toHaveAttribute(
      'href',
      '/api/user/api/auth/v1/oidc/start?return_to=%2Frobot%3Fpage%3D2',
    );
    expect(screen.getByRole('button', { name: SUBMIT[lang] })).toBeVisible();
    // Asked once: the page's clearing of the previous session's data keeps the public answer.
    expect(configAsked()).toBe(1);
    // Above the form: the button comes first in the page.
    const submit = screen.getByRole('button', { name: SUBMIT[lang] });
    expect(link.compareDocumentPosition(submit) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('never sends the user elsewhere: a foreign redirect starts for the dashboard', async () => {
    await openSignIn(lang, '/login/sign-in?redirect=%2F%2Fevil.example', ON);
    expect(await screen.findByRole('link', { name: BUTTON[lang] })).toHaveAttribute(
      'href',
      '/api/user/api/auth/v1/oidc/start?return_to=%2Fdashboard',
    );
  });

  it('hides the local form when local sign-in is off, and shows it again with ?local=1', async () => {
    const { unmount } = await openSignIn(lang, '/login/sign-in', ONLY_SSO);
    await screen.findByRole('link', { name: BUTTON[lang] });
    expect(screen.queryByRole('button', { name: SUBMIT[lang] })).not.toBeInTheDocument();
    expect(screen.queryByText(lang === 'pt' ? 'ou' : 'or')).toBeNull();
    unmount();

    await openSignIn(lang, '/login/sign-in?local=1', ONLY_SSO);
    await screen.findByRole('link', { name: BUTTON[lang] });
    expect(screen.getByRole('button', { name: SUBMIT[lang] })).toBeVisible();
  });

  it('shows no button when single sign-on is off', async () => {
    await openSignIn(lang, '/login/sign-in');
    expect(await screen.findByRole('button', { name: SUBMIT[lang] })).toBeVisible();
    expect(screen.queryByRole('link', { name: /Keycloak|SSO/ })).toBeNull();
  });

  it("shows the callback's failure in the reader's language", async () => {
    await openSignIn(lang, '/login/sign-in?sso_error=oidc_state', ON);
    expect(
      await screen.findByText(
        lang === 'pt'
          ? 'A tentativa de login único expirou ou foi aberta em outro navegador. Tente de novo.'
          : 'The single sign-on attempt expired or was opened in another browser. Try again.',
      ),
    ).toBeInTheDocument();
  });

  it('tells the owner of an existing account to sign in with the password and link from My account', async () => {
    await openSignIn(lang, '/login/sign-in?sso_error=oidc_link_required', ON);
    expect(
      await screen.findByText(
        lang === 'pt'
          ? 'Já existe uma conta com este e-mail. Entre com sua senha e vincule o login único em Minha conta.'
          : 'An account with this email already exists. Sign in with your password, then link single sign-on in My account.',
      ),
    ).toBeInTheDocument();
    // The password form stays, since that is the way in now.
    expect(screen.getByRole('button', { name: SUBMIT[lang] })).toBeVisible();
  });

  it('says a failed attempt in general words for a code it does not know', async () => {
    await openSignIn(lang, '/login/sign-in?sso_error=whatever', ON);
    expect(
      await screen.findByText(
        lang === 'pt'
          ? 'O login único não foi concluído. Tente de novo ou fale com seu administrador.'
          : 'Single sign-on did not complete. Try again or ask your administrator.',
      ),
    ).toBeInTheDocument();
  });
});

describe.each(['pt', 'en'] as const)('no-access page (%s)', (lang) => {
  it('explains that no client is given to the account, with a way back to sign-in', async () => {
    await resetEnvironment(lang);
    forbidFetch();
    renderWithRouter({ path: '/login/no-access' });
    expect(
      await screen.findByRole('heading', {
        name: lang === 'pt' ? 'Ainda sem acesso' : 'No access yet',
      }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        lang === 'pt'
          ? 'Sua conta não tem acesso a nenhum cliente. Peça ao administrador para dar acesso ao seu grupo.'
          : /Your account has no access to any client/,
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('link', {
        name: lang === 'pt' ? 'Entrar com outra conta' : 'Sign in with another account',
      }),
    ).toHaveAttribute('href', '/login/sign-in');
  });
});

function keys(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? keys(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

describe('single sign-on strings', () => {
  it('has the same keys in pt and en', () => {
    expect(keys(pt).sort()).toEqual(keys(en).sort());
    expect(keys(signInPt).sort()).toEqual(keys(signInEn).sort());
    expect(keys(linkPt).sort()).toEqual(keys(linkEn).sort());
  });
});
