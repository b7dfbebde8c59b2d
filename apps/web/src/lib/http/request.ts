import { isMessageKey, type FieldError } from '@rota/contract';
import { currentLanguage, i18n } from '../i18n';
import { getToken } from '../session';
import { ApiError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type ApiResponse<T> = { status: number; data: T };

export const API_BASE = '/api';

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function readErrorBody(data: unknown): { message?: string; code?: string; errors?: FieldError[] } {
  if (!data || typeof data !== 'object') return {};
  const body = data as Record<string, unknown>;
  const errors = Array.isArray(body.errors)
    ? body.errors.filter(
        (entry): entry is FieldError =>
          !!entry &&
          typeof (entry as FieldError).field === 'string' &&
          typeof (entry as FieldError).message === 'string',
      )
    : undefined;
  return {
    message: typeof body.message === 'string' ? body.message : undefined,
    code: typeof body.code === 'string' ? body.code : undefined,
    errors,
  };
}

function fallbackMessage(status: number, code: string | undefined): string {
  if (code && isMessageKey(code)) return i18n.t(`messages:${code}`);
  if (status === 401) return i18n.t('http.unauthorized');
  return i18n.t('http.requestFailed', { status });
}

/**
 * One call to the API: JSON both ways, the caller's language, the session token. It only
 * translates HTTP into values and ApiErrors; what the user sees is the clients' business.
 */
export async function request<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    // The server answers messages in this language (SPEC §1, DESIGN §4).
    'Accept-Language': currentLanguage(),
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ApiError(i18n.t('http.networkError'), { status: 0, data: cause });
  }

  const data = parseBody(await response.text());
  if (!response.ok) {
    const parsed = readErrorBody(data);
    const message = parsed.message ?? fallbackMessage(response.status, parsed.code);
    throw new ApiError(message, {
      status: response.status,
      code: parsed.code,
      errors: parsed.errors,
      data,
    });
  }
  return { status: response.status, data: data as T };
}
