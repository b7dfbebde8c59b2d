import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsStore } from '@mantine/notifications';
import { ApiError, api } from '../src/lib/http';
import { fileNameFromDisposition } from '../src/lib/http/request';
import { robotVersionFormData } from '../src/features/robots/api/create-robot-version';
import { setNavigator } from '../src/lib/navigation';
import { setToken } from '../src/lib/session';
import { mockFetch } from './http-mock';
import { resetEnvironment } from './render';

beforeEach(async () => {
  await resetEnvironment('en');
  setNavigator(vi.fn());
  setToken('abc');
});

afterEach(() => {
  vi.useRealTimers();
});

const shown = () => notificationsStore.getState().notifications.map((n) => n.message);

describe('multipart upload', () => {
  it('sends the FormData as it is: no JSON content type, the token and the language', async () => {
    const { calls } = mockFetch(() => ({ status: 201, body: { message: 'Created!', data: {} } }));
    const form = robotVersionFormData({
      rota_robots_id: 5,
      version: '1.0.0',
      notes: null,
      file: new File(['zip'], 'robot.zip'),
    });
    await api.upload('/rota/robot/version/api/v1/create', form);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.form).toBe(form);
    expect(calls[0]?.headers.get('Content-Type')).toBeNull();
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer abc');
    expect(calls[0]?.headers.get('Accept-Language')).toBe('en');
    // No notes: no empty part.
    expect([...form.keys()]).toEqual(['rota_robots_id', 'version', 'file']);
    expect(shown()).toEqual(['Created!']);
  });

  it('rejects a 400 with its field errors, without a popup', async () => {
    mockFetch(() => ({
      status: 400,
      body: { message: 'Some fields are not valid', errors: [{ field: 'file', message: 'Bad' }] },
    }));
    const error = await api.upload('/x/create', new FormData()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors).toEqual([{ field: 'file', message: 'Bad' }]);
    expect(shown()).toEqual([]);
  });
});

describe('blob download', () => {
  it('returns the body as a Blob with the server’s file name', async () => {
    const { calls } = mockFetch(() => ({
      status: 200,
      raw: 'bytes',
      headers: { 'Content-Disposition': 'attachment; filename="robot 1.zip"' },
    }));
    const file = await api.download('/rota/robot/version/api/v1/download', { id: 3 });
    expect(await file.blob.text()).toBe('bytes');
    expect(file.fileName).toBe('robot 1.zip');
    expect(calls[0]?.body).toEqual({ id: 3 });
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(shown()).toEqual([]);
  });

  it('reads a JSON error like any call: popup, then reject', async () => {
    mockFetch(() => ({ status: 404, body: { code: 'not_found', message: 'Not found' } }));
    await expect(api.download('/x/download', { id: 1 })).rejects.toMatchObject({ status: 404 });
    expect(shown()).toEqual(['Not found']);
  });

  it('ends the session on a 401 like any call', async () => {
    vi.useFakeTimers();
    const navigate = vi.fn();
    setNavigator(navigate);
    mockFetch(() => ({ status: 401, body: { code: 'session_expired', message: 'Expired' } }));
    await expect(api.download('/x/download', { id: 1 })).rejects.toMatchObject({ status: 401 });
    vi.advanceTimersByTime(5000);
    expect(navigate).toHaveBeenCalledWith('/login/sign-in');
  });

  it.each([
    ['attachment; filename="a.zip"', 'a.zip'],
    ['attachment; filename=b.tgz', 'b.tgz'],
    [`attachment; filename="x"; filename*=UTF-8''r%C3%B4b%C3%B4.zip`, 'rôbô.zip'],
    [null, undefined],
  ])('reads the file name of %s', (header, name) => {
    expect(fileNameFromDisposition(header)).toBe(name);
  });
});

describe('announced 200', () => {
  it('shows the message of a 200 when asked (task retry)', async () => {
    mockFetch(() => ({ status: 200, body: { message: 'Tasks queued again', data: { count: 2 } } }));
    await api.post('/rota/task/api/v1/retry', { ids: [1, 2] }, { announce: true });
    await api.post('/rota/task/api/v1/index', {});
    expect(shown()).toEqual(['Tasks queued again']);
  });
});
