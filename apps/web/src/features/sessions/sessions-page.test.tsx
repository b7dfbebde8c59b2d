// The matchers' types: tsconfig.json (src) does not load test/setup.ts, which registers them.
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language, UserSession } from '@rota/contract';
import { callsTo, openPage } from '../../../test/operations-fixtures';
import { resetEnvironment } from '../../../test/render';

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BASE = '/user/api/auth/v1/sessions';

function makeSession(overrides: Partial<UserSession> = {}): UserSession {
  return {
    sessions_id: 1,
    created_at: '2026-11-24T08:00:00.000Z',
    last_used_at: new Date(NOW.getTime() - 2 * 60_000).toISOString(),
    expires_at: '2026-11-25T08:00:00.000Z',
    ip: '10.0.0.5',
    user_agent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    method: 'password_totp',
    current: true,
    ...overrides,
  };
}

const here = makeSession();
const laptop = makeSession({
  sessions_id: 2,
  ip: '203.0.113.9',
  user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  method: 'password',
  last_used_at: null,
  current: false,
});
const script = makeSession({
  sessions_id: 3,
  ip: null,
  user_agent: 'curl/8.5.0',
  method: 'recovery_code',
  current: false,
});

/** The server's pages of `sessions` (this one first), as many as the body asks for. */
function pageOf(sessions: UserSession[], body: unknown) {
  const { page = 1, per_page: perPage = 20 } = (body ?? {}) as { page?: number; per_page?: number };
  return {
    data: sessions.slice((page - 1) * perPage, page * perPage),
    meta: { total: sessions.length, current_page: page, per_page: perPage },
  };
}

async function openSessions(
  lang: Language = 'pt',
  sessions = [here, laptop, script],
  path = '/account/sessions',
  /** Held until it settles: the list's answer waits for it. */
  answered: Promise<void> = Promise.resolve(),
) {
  return openPage(
    path,
    /^(Sessões|Sessions)$/,
    [],
    (call) => {
      if (call.url.endsWith(`${BASE}/index`))
        return answered.then(() => ({ status: 200, body: pageOf(sessions, call.body) }));
      if (call.url.endsWith(`${BASE}/revoke`))
        return { status: 200, body: { message: 'Sessão encerrada' } };
      if (call.url.endsWith(`${BASE}/revoke-others`))
        return { status: 200, body: { message: 'Sessions signed out' } };
      return undefined;
    },
    lang,
  );
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  await resetEnvironment('pt');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('/account/sessions', { timeout: 30_000 }, () => {
  it('lists the sessions with browser, address, last use and method; this one is marked', async () => {
    await openSessions('pt');
    const table = await screen.findByRole('table', { name: 'Sessões' });
    const [, first, second, third] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Chrome no Linux')).toBeInTheDocument();
    expect(within(first!).getByText('Este dispositivo')).toBeInTheDocument();
    expect(within(first!).getByText('10.0.0.5')).toBeInTheDocument();
    expect(within(first!).getByText('há 2 minutos')).toBeInTheDocument();
    expect(within(first!).getByText('Senha e código')).toBeInTheDocument();
    // The current session is signed out from the user menu, not from here.
    expect(within(first!).queryByRole('button')).toBeNull();
    expect(within(second!).getByText('Firefox no Windows')).toBeInTheDocument();
    expect(within(second!).getByText('Ainda não usada')).toBeInTheDocument();
    expect(within(second!).queryByText('Este dispositivo')).toBeNull();
    expect(within(third!).getByText('Cliente de API')).toBeInTheDocument();
    expect(within(third!).getByText('Código de recuperação')).toBeInTheDocument();
  });

  it('shows placeholder rows, announced as loading, until the first page arrives', async () => {
    let answer!: () => void;
    await openSessions(
      'pt',
      undefined,
      undefined,
      new Promise<void>((resolve) => (answer = resolve)),
    );
    const loading = screen.getByRole('status', { name: 'Carregando…' });
    expect(loading).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('table')).toBeNull();
    answer();
    const table = await screen.findByRole('table', { name: 'Sessões' });
    expect(within(table).getByText('Chrome no Linux')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Carregando…' })).toBeNull();
  });

  it('signs another session out after confirmation', async () => {
    const { calls, user } = await openSessions('pt');
    await user.click(await screen.findByRole('button', { name: 'Encerrar Firefox no Windows' }));
    const dialog = await screen.findByRole('dialog', { name: 'Encerrar Firefox no Windows?' });
    expect(callsTo(calls, `${BASE}/revoke`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Encerrar' }));
    await waitFor(() => expect(callsTo(calls, `${BASE}/revoke`)).toHaveLength(1));
    expect(callsTo(calls, `${BASE}/revoke`)[0]?.body).toEqual({ id: 2 });
    // The list is read again.
    await waitFor(() => expect(callsTo(calls, `${BASE}/index`).length).toBeGreaterThan(1));
  });

  it('signs out everywhere else, in English', async () => {
    const { calls, user } = await openSessions('en');
    const table = await screen.findByRole('table', { name: 'Sessions' });
    expect(within(table).getByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(table).getByText('This device')).toBeInTheDocument();
    expect(within(table).getByText('API client')).toBeInTheDocument();
    expect(within(table).getByText('Password')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign out the others' }));
    await waitFor(() => expect(callsTo(calls, `${BASE}/revoke-others`)).toHaveLength(1));
    expect(await screen.findByText('Sessions signed out')).toBeInTheDocument();
  });

  it('pages many sessions: this one leads page 1, the others follow on the next pages', async () => {
    const many = [
      here,
      ...Array.from({ length: 24 }, (_, i) =>
        makeSession({ sessions_id: 100 + i, ip: `10.1.0.${i}`, current: false }),
      ),
    ];
    const { calls, user } = await openSessions('en', many);
    const table = await screen.findByRole('table', { name: 'Sessions' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(within(table).getByText('This device')).toBeInTheDocument();
    expect(screen.getByText('1–20 of 25')).toBeInTheDocument();
    expect(callsTo(calls, `${BASE}/index`)[0]?.body).toEqual({ page: 1, per_page: 20 });
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(screen.getByText('21–25 of 25')).toBeInTheDocument());
    expect(callsTo(calls, `${BASE}/index`).at(-1)?.body).toEqual({ page: 2, per_page: 20 });
    const second = screen.getByRole('table', { name: 'Sessions' });
    expect(within(second).getAllByRole('row')).toHaveLength(6);
    expect(within(second).queryByText('This device')).toBeNull();
    // Others exist although none is on this page's first row: "everywhere else" stays offered.
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();
  });

  it('goes back to the last page when the page asked for is past the end', async () => {
    const { calls } = await openSessions('en', [here, laptop], '/account/sessions?page=4');
    await waitFor(() =>
      expect(callsTo(calls, `${BASE}/index`).at(-1)?.body).toEqual({ page: 1, per_page: 20 }),
    );
    const table = await screen.findByRole('table', { name: 'Sessions' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
  });

  it('offers no "everywhere else" when this is the only session', async () => {
    await openSessions('en', [here]);
    await screen.findByRole('table', { name: 'Sessions' });
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
  });
});
