import { notificationsStore, type NotificationData } from '@mantine/notifications';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_COOKIE, TIMINGS } from '@rota/contract';
import { ApiError, api, plainApi } from '../src/lib/http';
import { setNavigator } from '../src/lib/navigation';
import { setToken } from '../src/lib/session';
import { mockFetch } from './http-mock';
import { resetEnvironment } from './render';

function shown(): NotificationData[] {
  const state = notificationsStore.getState();
  return [...state.notifications, ...state.queue];
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to reject');
}

let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;

beforeEach(async () => {
  await resetEnvironment('en');
  navigate = vi.fn<(path: string) => void>();
  setNavigator(navigate);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('main API client', () => {
  it('sends JSON, the language and the bearer token to /api', async () => {
    setToken('abc');
    const { calls } = mockFetch(() => ({ status: 200, body: { ok: true } }));
    await expect(api.post('/rota/robot/api/v1/index', { page: 1 })).resolves.toEqual({ ok: true });
    expect(calls[0]?.url).toBe('/api/rota/robot/api/v1/index');
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.body).toEqual({ page: 1 });
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer abc');
    expect(calls[0]?.headers.get('Accept-Language')).toBe('en');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(shown()).toHaveLength(0);
  });

  it('201 shows the server message, else "Created!", for 3000 ms', async () => {
    mockFetch(() => ({ status: 201, body: { message: 'Robot created', data: { id: 1 } } }));
    await api.post('/x/create', {});
    mockFetch(() => ({ status: 201, body: { data: { id: 2 } } }));
    await api.post('/x/create', {});
    expect(shown().map((n) => n.message)).toEqual(['Robot created', 'Created!']);
    expect(shown().every((n) => n.autoClose === TIMINGS.successPopupMs)).toBe(true);
  });

  it('202 shows "Removed!" and 204 shows "changed!" by default', async () => {
    mockFetch(() => ({ status: 202, body: {} }));
    await api.post('/x/delete', { id: 1 });
    mockFetch(() => ({ status: 204 }));
    await expect(api.put('/x/update', { id: 1 })).resolves.toBeUndefined();
    await api.put('/x/update', { id: 1 }, { successMessage: 'Password changed' });
    expect(shown().map((n) => n.message)).toEqual(['Removed!', 'changed!', 'Password changed']);
  });

  it('translates the default popups into Portuguese', async () => {
    await resetEnvironment('pt');
    mockFetch(({ url }) =>
      url.endsWith('create')
        ? { status: 201, body: {} }
        : url.endsWith('delete')
          ? { status: 202, body: {} }
          : { status: 204 },
    );
    await api.post('/x/create');
    await api.post('/x/delete');
    await api.put('/x/update');
    expect(shown().map((n) => n.message)).toEqual(['Criado!', 'Removido!', 'Alterado!']);
  });

  it('200 answers show nothing', async () => {
    mockFetch(() => ({ status: 200, body: { message: 'here you are' } }));
    await api.post('/x/show', { id: 1 });
    expect(shown()).toHaveLength(0);
  });

  it('400 rejects with the field errors and shows no popup', async () => {
    mockFetch(() => ({
      status: 400,
      body: {
        code: 'invalid_input',
        message: 'Some fields are not valid',
        errors: [{ field: 'name', message: 'Required name' }],
      },
    }));
    const error = await rejection(api.post('/x/create', {}));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_input');
    expect(error.errors).toEqual([{ field: 'name', message: 'Required name' }]);
    expect(shown()).toHaveLength(0);
  });

  it('401 pops the server message for 6000 ms, clears the session and redirects after 5000 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    setToken('expired');
    window.history.pushState({}, '', '/robot?page=2');
    mockFetch(() => ({
      status: 401,
      body: { code: 'session_expired', message: 'Session expired' },
    }));

    const error = await rejection(api.post('/rota/robot/api/v1/index'));
    expect(error.status).toBe(401);
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(shown()).toHaveLength(1);
    expect(shown()[0]).toMatchObject({
      color: 'red',
      message: 'Session expired',
      autoClose: TIMINGS.errorPopupMs,
    });

    // A second 401 meanwhile neither stacks a popup nor starts another timer.
    await rejection(api.post('/rota/robot/api/v1/index'));
    expect(shown()).toHaveLength(1);

    vi.advanceTimersByTime(TIMINGS.unauthorizedRedirectMs - 1);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login/sign-in?redirect=%2Frobot%3Fpage%3D2');
    window.history.pushState({}, '', '/');
  });

  it('401 without a message says "Unauthorized!"', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    mockFetch(() => ({ status: 401 }));
    await rejection(api.post('/x'));
    expect(shown()[0]?.message).toBe('Unauthorized!');
    vi.runAllTimers();
    expect(navigate).toHaveBeenCalledWith('/login/sign-in');
  });

  it('other errors pop up titled "Erro" with the server message, then reject', async () => {
    await resetEnvironment('pt');
    mockFetch(() => ({ status: 409, body: { code: 'conflict', message: 'Nome já existe' } }));
    const error = await rejection(api.post('/x/create', {}));
    expect(error.status).toBe(409);
    expect(error.message).toBe('Nome já existe');
    expect(shown()).toEqual([
      expect.objectContaining({ title: 'Erro', message: 'Nome já existe', color: 'red' }),
    ]);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a network failure pops up and rejects with status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await rejection(api.post('/x'));
    expect(error.status).toBe(0);
    expect(shown()[0]).toMatchObject({ title: 'Error', message: 'Could not reach the server' });
  });

  it('quiet calls show neither success nor error popups', async () => {
    mockFetch(() => ({ status: 204 }));
    await api.put('/x', {}, { quiet: true });
    mockFetch(() => ({ status: 403, body: { code: 'client_not_member', message: 'No' } }));
    await rejection(api.put('/x', {}, { quiet: true }));
    expect(shown()).toHaveLength(0);
  });
});

describe('plain API client (login pages)', () => {
  it('rejects every error without popups', async () => {
    mockFetch(() => ({ status: 429, body: { code: 'too_many_requests', message: 'Slow down' } }));
    const error = await rejection(plainApi.post('/user/api/auth/v1/recover-password', {}));
    expect(error.message).toBe('Slow down');
    mockFetch(() => ({ status: 201, body: { message: 'made' } }));
    await plainApi.post('/x');
    expect(shown()).toHaveLength(0);
  });

  it('on 401 clears the token and goes to sign-in at once', async () => {
    setToken('stale');
    window.history.pushState({}, '', '/team');
    mockFetch(() => ({ status: 401, body: { code: 'unauthorized', message: 'Unauthorized!' } }));
    await rejection(plainApi.post('/user/api/auth/v1/logout'));
    expect(Cookies.get(SESSION_COOKIE)).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/login/sign-in?redirect=%2Fteam');
    expect(shown()).toHaveLength(0);
    window.history.pushState({}, '', '/');
  });

  it('on the sign-in page a 401 (wrong password) only rejects', async () => {
    window.history.pushState({}, '', '/login/sign-in');
    mockFetch(() => ({ status: 401, body: { code: 'invalid_credentials', message: 'Wrong' } }));
    const error = await rejection(plainApi.post('/user/api/auth/v1/session', {}));
    expect(error.code).toBe('invalid_credentials');
    expect(navigate).not.toHaveBeenCalled();
    window.history.pushState({}, '', '/');
  });
});
