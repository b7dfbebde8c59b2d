import { notificationsStore } from '@mantine/notifications';
import { screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE } from '@rota/contract';
import { resetSessionChannel, SESSION_CHANNEL } from '../src/lib/broadcast';
import { setToken } from '../src/lib/session';
import { makeDashboard } from './activity-fixtures';
import { FakeBroadcastChannel } from './fake-broadcast-channel';
import { makeUser } from './fixtures';
import { mockFetch, type MockReply } from './http-mock';
import { renderWithRouter, resetEnvironment } from './render';

function serve(logout: MockReply) {
  return mockFetch(({ url }) => {
    if (url.endsWith('/me'))
      return { status: 200, body: makeUser({ permissions: ['ROBOS.LIST'] }) };
    if (url.endsWith('/logout')) return logout;
    if (url.endsWith('/dashboard/api/v1/index'))
      return { status: 200, body: { data: makeDashboard() } };
    // The live-events stream is not served here: the console retries it quietly.
    throw new Error(`unexpected ${url}`);
  });
}

async function signOutThroughTheMenu(user: ReturnType<typeof renderWithRouter>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Menu do usuário' }));
  expect(await screen.findByText('Deseja sair do sistema ?')).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Sim' }));
}

beforeEach(async () => {
  await resetEnvironment('pt');
  FakeBroadcastChannel.instances = [];
  vi.stubGlobal('BroadcastChannel', FakeBroadcastChannel);
  resetSessionChannel();
  setToken('token-1');
});

afterEach(() => {
  resetSessionChannel();
});

describe('sign-out', () => {
  it('posts logout, clears the cookie, tells the other tabs and goes to sign-in', async () => {
    const otherTab = new FakeBroadcastChannel(SESSION_CHANNEL);
    const heard = FakeBroadcastChannel.received(otherTab);
    const { calls } = serve({ status: 200, body: { message: 'Sessão encerrada' } });
    const { user, router, queryClient } = renderWithRouter({ path: '/robot' });

    await screen.findByRole('heading', { name: 'Robôs' });
    await signOutThroughTheMenu(user);

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/sign-in'));
    const logout = calls.find((call) => call.url === '/api/user/api/auth/v1/logout');
    expect(logout?.method).toBe('POST');
    expect(logout?.headers.get('Authorization')).toBe('Bearer token-1');
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(heard).toEqual([{ type: 'sign-out' }]);
    // Nothing of the user stays cached; the sign-in page asks only for the public SSO config.
    await waitFor(() =>
      expect(
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.queryKey),
      ).toEqual([['oidc', 'config']]),
    );
  });

  it('signs out all the same when the logout call fails', async () => {
    serve({ status: 500, body: { code: 'internal_error', message: 'boom' } });
    const { user, router } = renderWithRouter({ path: '/dashboard' });
    await screen.findByRole('heading', { name: 'Início' });
    await signOutThroughTheMenu(user);

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/sign-in'));
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(notificationsStore.getState().notifications).toHaveLength(0);
  });

  it('follows a sign-out made in another tab', async () => {
    serve({ status: 200, body: {} });
    const { router } = renderWithRouter({ path: '/robot' });
    await screen.findByRole('heading', { name: 'Robôs' });

    new FakeBroadcastChannel(SESSION_CHANNEL).postMessage({ type: 'sign-out' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/sign-in'));
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument();
  });

  it('ignores unrelated messages on the channel', async () => {
    serve({ status: 200, body: {} });
    const { router } = renderWithRouter({ path: '/robot' });
    await screen.findByRole('heading', { name: 'Robôs' });
    new FakeBroadcastChannel(SESSION_CHANNEL).postMessage({ type: 'hello' });
    new FakeBroadcastChannel('another-channel').postMessage({ type: 'sign-out' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/robot');
  });

  it('works in a browser without BroadcastChannel', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    resetSessionChannel();
    serve({ status: 200, body: {} });
    const { user, router } = renderWithRouter({ path: '/dashboard' });
    await screen.findByRole('heading', { name: 'Início' });
    await signOutThroughTheMenu(user);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login/sign-in'));
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
  });
});
