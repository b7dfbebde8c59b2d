import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MeResponse } from '@rota/contract';
import { setToken } from '../src/lib/session';
import { makeUser } from './fixtures';
import { mockFetch } from './http-mock';
import { matchMediaStub } from './media-query';
import { callsTo } from './operations-fixtures';
import { renderWithRouter, resetEnvironment } from './render';

/**
 * "Sistema" in My account: the console follows the operating system's dark preference, and
 * changes with it while open. The OS is a matchMedia whose `prefers-color-scheme: dark` flips.
 */
const ACCOUNT = '/user/api/v1/account/update';
const DARK_QUERY = '(prefers-color-scheme: dark)';
/** Mantine's localStorage key for this browser's choice. */
const STORED = 'mantine-color-scheme-value';

type Listener = (event: { matches: boolean; media: string }) => void;

function operatingSystem(initiallyDark: boolean) {
  let dark = initiallyDark;
  const listeners = new Set<Listener>();
  const stub = matchMediaStub(() => false);
  window.matchMedia = ((query: string) => {
    if (query !== DARK_QUERY) return stub(query) as unknown as MediaQueryList;
    return {
      get matches() {
        return dark;
      },
      media: query,
      onchange: null,
      addListener: (l: Listener) => listeners.add(l),
      removeListener: (l: Listener) => listeners.delete(l),
      addEventListener: (_: string, l: Listener) => listeners.add(l),
      removeEventListener: (_: string, l: Listener) => listeners.delete(l),
      dispatchEvent: () => false,
    } as unknown as MediaQueryList;
  }) as typeof window.matchMedia;
  return {
    turn(to: 'dark' | 'light') {
      dark = to === 'dark';
      for (const listener of [...listeners]) listener({ matches: dark, media: DARK_QUERY });
    },
  };
}

const original = window.matchMedia;

async function openAccount(me: Partial<MeResponse>, stored?: string) {
  await resetEnvironment('pt');
  if (stored) window.localStorage.setItem(STORED, stored);
  setToken('token');
  let user = makeUser(me);
  const { calls } = mockFetch((call) => {
    if (call.url.endsWith('/user/api/auth/v1/me')) return { status: 200, body: user };
    if (call.url.endsWith(ACCOUNT)) {
      user = { ...user, ...(call.body as Partial<MeResponse>) };
      return { status: 200, body: { message: 'saved', data: user } };
    }
    if (call.url.includes('/alert/')) return { status: 200, body: { data: [], meta: {} } };
    throw new Error(`unexpected API call: ${call.method} ${call.url}`);
  });
  const view = renderWithRouter({ path: '/account' });
  await screen.findByRole('heading', { level: 1, name: 'Minha conta' }, { timeout: 5000 });
  return { ...view, calls, theme: () => screen.getByRole('radiogroup', { name: 'Tema' }) };
}

const applied = (scheme: 'dark' | 'light') =>
  waitFor(() =>
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', scheme),
  );

beforeEach(() => {
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});
afterEach(() => {
  window.matchMedia = original;
});

describe('the "Sistema" colour scheme', { timeout: 20_000 }, () => {
  it('with nothing chosen anywhere, follows the OS: dark at once, then live as it changes', async () => {
    const os = operatingSystem(true);
    const { theme } = await openAccount({ color_scheme: null });
    await applied('dark');
    expect(within(theme()).getByRole('radio', { name: 'Sistema' })).toBeChecked();
    os.turn('light');
    await applied('light');
    os.turn('dark');
    await applied('dark');
  });

  it('chosen in My account after "Claro", follows the OS live and is kept with the account', async () => {
    const os = operatingSystem(true);
    const { user, calls, theme } = await openAccount({ color_scheme: 'light' });
    await applied('light');
    await user.click(within(theme()).getByText('Sistema'));
    await waitFor(() => expect(callsTo(calls, ACCOUNT)[0]?.body).toEqual({ color_scheme: 'auto' }));
    await applied('dark');
    os.turn('light');
    await applied('light');
    expect(within(theme()).getByRole('radio', { name: 'Sistema' })).toBeChecked();
  });

  it('kept by the account, wins over this browser\u2019s older choice', async () => {
    const os = operatingSystem(false);
    await openAccount({ color_scheme: 'auto' }, 'dark');
    await applied('light');
    os.turn('dark');
    await applied('dark');
  });

  it('is not shown over a scheme this browser fixed (the header\u2019s switch, signed out)', async () => {
    operatingSystem(false);
    const { theme } = await openAccount({ color_scheme: null }, 'dark');
    await applied('dark');
    expect(within(theme()).getByRole('radio', { name: 'Escuro' })).toBeChecked();
    expect(within(theme()).getByRole('radio', { name: 'Sistema' })).not.toBeChecked();
  });
});
