import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Language, MeResponse } from '@rota/contract';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { mockFetch, type MockCall, type MockReply } from './http-mock';
import { callsTo } from './operations-fixtures';
import { renderWithRouter, resetEnvironment } from './render';

/**
 * "My account": one's own name, picture, password, language and colour scheme; the
 * last two are kept on the server, applied at sign-in and saved by the header's switches.
 */
const ACCOUNT = '/user/api/v1/account/update';

async function openAccount(
  lang: Language,
  options: { me?: Partial<MeResponse>; handler?: (call: MockCall) => MockReply | undefined } = {},
) {
  await resetEnvironment(lang);
  setToken('token');
  let me = makeUser(options.me);
  const { calls } = mockFetch((call) => {
    if (call.url.endsWith('/user/api/auth/v1/me')) return { status: 200, body: me };
    const custom = options.handler?.(call);
    if (custom) return custom;
    if (call.url.endsWith(ACCOUNT)) {
      me = { ...me, ...(call.body as Partial<MeResponse>) };
      return { status: 200, body: { message: 'saved', data: me } };
    }
    if (call.url.includes('/alert/')) return { status: 200, body: { data: [], meta: {} } };
    throw new Error(`unexpected API call: ${call.method} ${call.url}`);
  });
  const view = renderWithRouter({ path: '/account' });
  await screen.findByRole(
    'heading',
    { level: 1, name: /Minha conta|My account/ },
    { timeout: 5000 },
  );
  return { ...view, calls };
}

beforeEach(async () => {
  await resetEnvironment('pt');
});

describe('/account', { timeout: 20_000 }, () => {
  it.each([
    ['pt', 'Nome', 'Sobrenome', 'Salvar', 'Nome obrigatório'],
    ['en', 'First name', 'Last name', 'Save', 'Required first name'],
  ] as const)(
    '%s: changes one’s own name, checked as the server checks it',
    async (lang, name, lastName, save, required) => {
      const { user, calls } = await openAccount(lang);
      const first = screen.getByRole('textbox', { name });
      expect(first).toHaveValue('Ana');
      await user.clear(first);
      await user.click(screen.getByRole('button', { name: save }));
      expect(await screen.findByText(required)).toBeInTheDocument();
      expect(callsTo(calls, ACCOUNT)).toHaveLength(0);

      await user.type(first, 'Ana Clara');
      await user.clear(screen.getByRole('textbox', { name: lastName }));
      await user.type(screen.getByRole('textbox', { name: lastName }), 'Souza Lima');
      await user.click(screen.getByRole('button', { name: save }));
      await waitFor(() => expect(callsTo(calls, ACCOUNT)).toHaveLength(1));
      expect(callsTo(calls, ACCOUNT)[0]?.body).toEqual({
        name: 'Ana Clara',
        last_name: 'Souza Lima',
      });
      // The header's menu shows the new name at once (the answer is the new `me`).
      expect(
        await screen.findByRole('button', {
          name: lang === 'pt' ? 'Menu do usuário' : 'User menu',
        }),
      ).toBeInTheDocument();
    },
  );

  it.each([
    [
      'pt',
      'Senha atual',
      'Nova senha',
      'Confirme a nova senha',
      'Alterar senha',
      'A senha atual não está correta',
    ],
    [
      'en',
      'Current password',
      'New password',
      'Confirm the new password',
      'Change password',
      'The current password is not correct',
    ],
  ] as const)(
    '%s: changes one’s own password; a wrong current one is said under its field',
    async (lang, current, next, confirm, submit, wrong) => {
      let answered = false;
      const { user, calls } = await openAccount(lang, {
        handler: ({ url }) => {
          if (!url.endsWith('/user/api/v1/update/password')) return undefined;
          if (answered) return { status: 204, body: null };
          answered = true;
          return {
            status: 400,
            body: { message: 'x', errors: [{ field: 'current_password', message: wrong }] },
          };
        },
      });
      await user.type(screen.getByLabelText(current), 'not-it-at-all');
      await user.type(screen.getByLabelText(next), 'second-password');
      await user.type(screen.getByLabelText(confirm), 'second-password');
      await user.click(screen.getByRole('button', { name: submit }));
      expect(await screen.findByText(wrong)).toBeInTheDocument();
      expect(callsTo(calls, '/update/password')[0]?.body).toEqual({
        current_password: 'not-it-at-all',
        password: 'second-password',
        confirm_password: 'second-password',
      });
      await user.clear(screen.getByLabelText(current));
      await user.type(screen.getByLabelText(current), 'first-password');
      await user.click(screen.getByRole('button', { name: submit }));
      await waitFor(() => expect(screen.getByLabelText(current)).toHaveValue(''));
    },
  );

  it.each([
    ['pt', /encerra todas as suas outras sessões e revoga todas as suas chaves de API/],
    ['en', /signs you out of every other session and revokes all your API keys/],
  ] as const)(
    '%s: warns before a password change that other sessions and API keys end',
    async (lang, warning) => {
      await openAccount(lang);
      expect(screen.getByRole('alert')).toHaveTextContent(warning);
    },
  );

  it('keeps language and colour scheme with the account', async () => {
    const { user, calls } = await openAccount('pt');
    const language = screen.getByRole('radiogroup', { name: 'Idioma' });
    await user.click(within(language).getByText('English'));
    await waitFor(() => expect(callsTo(calls, ACCOUNT)[0]?.body).toEqual({ language: 'en' }));
    // The page turned English at once.
    expect(
      await screen.findByRole('heading', { level: 1, name: 'My account' }),
    ).toBeInTheDocument();
    const scheme = screen.getByRole('radiogroup', { name: 'Colour scheme' });
    await user.click(within(scheme).getByText('Dark'));
    await waitFor(() => expect(callsTo(calls, ACCOUNT)[1]?.body).toEqual({ color_scheme: 'dark' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });

  it('applies the account’s language and colour scheme at sign-in on a new browser', async () => {
    await openAccount('pt', { me: { language: 'en', color_scheme: 'dark' } });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'My account' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
  });

  it('saves the header’s language switch to the account when signed in', async () => {
    const { user, calls } = await openAccount('en');
    await user.click(screen.getByRole('button', { name: 'Language' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Português' }));
    await waitFor(() => expect(callsTo(calls, ACCOUNT)[0]?.body).toEqual({ language: 'pt' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Minha conta' }),
    ).toBeInTheDocument();
  });

  it('is reached from the user menu', async () => {
    const { user, router } = await openAccount('pt');
    await user.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    await user.click(await screen.findByRole('link', { name: 'Minha conta' }));
    expect(router.state.location.pathname).toBe('/account');
  });
});
