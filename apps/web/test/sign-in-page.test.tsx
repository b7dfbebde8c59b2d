import { screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '@rota/contract';
import { authKeys } from '../src/features/auth/api/keys';
import { makeSession } from './fixtures';
import { forbidFetch, mockFetch } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

beforeEach(() => {
  // The plain client leaves the sign-in page alone on 401 only when it is the current page.
  window.history.replaceState({}, '', '/login/sign-in');
});

async function openSignIn(lang: 'pt' | 'en', path = '/login/sign-in') {
  await resetEnvironment(lang);
  const view = renderWithRouter({ path });
  await screen.findByRole('button', { name: lang === 'pt' ? 'Entrar' : 'Sign in' });
  return view;
}

describe('sign-in page', () => {
  it('shows the Portuguese messages for empty fields and calls nothing', async () => {
    const { calls } = forbidFetch();
    const { user, container } = await openSignIn('pt');
    expect(container.querySelector('input[name="access"]')).toBeInTheDocument();
    expect(container.querySelector('input[name="password"]')).toBeInTheDocument();
    expect(screen.getByLabelText(/Acesso ou e-mail/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByText('Acesso obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Senha obrigatória')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the messages in English for empty fields', async () => {
    forbidFetch();
    const { user } = await openSignIn('en');
    expect(screen.getByLabelText(/Access or email/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Required acess')).toBeInTheDocument();
    expect(screen.getByText('Required password')).toBeInTheDocument();
  });

  it('re-translates errors already on screen when the language changes', async () => {
    forbidFetch();
    const { user } = await openSignIn('pt');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    await screen.findByText('Acesso obrigatório');

    await user.click(screen.getByRole('button', { name: 'Idioma' }));
    await user.click(await screen.findByRole('menuitem', { name: 'English' }));

    expect(await screen.findByText('Required acess')).toBeInTheDocument();
  });

  it('shows wrong credentials inline, with no popup and no redirect', async () => {
    const { calls } = mockFetch(() => ({
      status: 401,
      body: { code: 'invalid_credentials', message: 'Acesso ou senha incorretos' },
    }));
    const { user, router } = await openSignIn('pt');

    await user.type(screen.getByLabelText(/Acesso ou e-mail/), 'ana');
    await user.type(screen.getByLabelText(/^Senha/), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível entrar');
    expect(alert).toHaveTextContent('Acesso ou senha incorretos');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/api/user/api/auth/v1/session');
    expect(calls[0]?.body).toEqual({ access: 'ana', password: 'wrong-password' });
    expect(calls[0]?.headers.get('Accept-Language')).toBe('pt');
    expect(router.state.location.pathname).toBe('/login/sign-in');
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    // The 401 popup of the main client would say "Não autorizado!" or similar: none here.
    expect(screen.queryByText('Não autorizado!')).not.toBeInTheDocument();
  });

  it('shows throttling (429) inline with the server message', async () => {
    mockFetch(() => ({
      status: 429,
      body: { code: 'too_many_requests', message: 'Too many attempts. Please wait.' },
    }));
    const { user } = await openSignIn('en');
    await user.type(screen.getByLabelText(/Access or email/), 'ana');
    await user.type(screen.getByLabelText(/^Password/), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait.');
  });

  it('puts server field errors under their fields', async () => {
    mockFetch(() => ({
      status: 400,
      body: {
        code: 'invalid_input',
        message: 'Some fields are not valid',
        errors: [{ field: 'access', message: 'Invalid acess' }],
      },
    }));
    const { user } = await openSignIn('en');
    await user.type(screen.getByLabelText(/Access or email/), 'ana');
    await user.type(screen.getByLabelText(/^Password/), 'x');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid acess')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('stores the token, seeds the user and goes back to the page that asked', async () => {
    const session = makeSession({ token: 'fresh-token', permissions: ['ROBOS.LIST'] });
    mockFetch(({ url }) =>
      url.endsWith('/session')
        ? { status: 200, body: session }
        : { status: 200, body: { ...session, token: undefined, avatar: null } },
    );
    const { user, router, queryClient } = await openSignIn(
      'en',
      '/login/sign-in?redirect=%2Frobot%3Fpage%3D2',
    );
    await user.type(screen.getByLabelText(/Access or email/), 'ana@example.com');
    await user.type(screen.getByLabelText(/^Password/), 'right-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/robot'));
    expect(router.state.location.search).toBe('?page=2');
    expect(Cookies.get(SESSION_COOKIE)).toBe('fresh-token');
    expect(queryClient.getQueryData(authKeys.me())).toMatchObject({ users_id: 7, avatar: null });
  });

  it('refuses to redirect to another origin after sign-in', async () => {
    mockFetch(() => ({ status: 200, body: makeSession() }));
    const { user, router } = await openSignIn('en', '/login/sign-in?redirect=%2F%2Fevil.example');
    await user.type(screen.getByLabelText(/Access or email/), 'ana');
    await user.type(screen.getByLabelText(/^Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });

  it('links to password recovery and access request', async () => {
    forbidFetch();
    await openSignIn('pt');
    expect(screen.getByRole('link', { name: 'Esqueci minha senha' })).toHaveAttribute(
      'href',
      '/login/recover-password',
    );
    expect(screen.getByRole('link', { name: 'Solicitar acesso' })).toHaveAttribute(
      'href',
      '/login/request-access',
    );
  });
});
