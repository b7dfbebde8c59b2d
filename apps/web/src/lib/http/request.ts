import { isMessageKey, type FieldError } from '@rota/contract';
import { currentLanguage, i18n } from '../i18n';
import { untilFirstPaint } from '../first-paint';
import { getToken } from '../session';
import { ApiError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type ApiResponse<T> = { status: number; data: T };

/** A file the server streamed back (`download` calls). */
export type DownloadedFile = { blob: Blob; fileName: string | undefined };

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
 * Sends one call: the caller's language, the session token, and the body either as JSON or,
 * for a FormData, as multipart (the browser writes that Content-Type with its boundary).
 */
async function send(
  method: HttpMethod,
  path: string,
  body: unknown,
  accept: string,
  early = false,
): Promise<Response> {
  const firstPaint = early ? undefined : untilFirstPaint();
  if (firstPaint) await firstPaint;
  const headers: Record<string, string> = {
    Accept: accept,
    // The server answers messages in this language.
    'Accept-Language': currentLanguage(),
  };
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  try {
    return await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? (body as FormData) : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ApiError(i18n.t('http.networkError'), { status: 0, data: cause });
  }
}

/** A failed answer as an ApiError, whatever the call expected to read. */
async function failure(response: Response): Promise<ApiError> {
  const data = parseBody(await response.text());
  const parsed = readErrorBody(data);
  const message = parsed.message ?? fallbackMessage(response.status, parsed.code);
  return new ApiError(message, {
    status: response.status,
    code: parsed.code,
    errors: parsed.errors,
    data,
  });
}

/**
 * One call to the API: JSON both ways (or a multipart body), the caller's language, the session
 * token. It only translates HTTP into values and ApiErrors; what the user sees is the clients'
 * business.
 */
export async function request<T>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  early = false,
): Promise<ApiResponse<T>> {
  const response = await send(method, path, body, 'application/json', early);
  if (!response.ok) throw await failure(response);
  const data = parseBody(await response.text());
  return { status: response.status, data: data as T };
}

/** `attachment; filename="a b.zip"; filename*=UTF-8''a%20b.zip` → `a b.zip`. */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Fall through to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  const name = plain?.[2] ?? plain?.[1];
  return name ? name.trim() : undefined;
}

/** A call whose answer is a file: the body as a Blob, and the name the server gave it. */
export async function requestBlob(
  method: HttpMethod,
  path: string,
  body?: unknown,
): Promise<ApiResponse<DownloadedFile>> {
  const response = await send(method, path, body, '*/*');
  if (!response.ok) throw await failure(response);
  const blob = await response.blob();
  const fileName = fileNameFromDisposition(response.headers.get('Content-Disposition'));
  return { status: response.status, data: { blob, fileName } };
}
