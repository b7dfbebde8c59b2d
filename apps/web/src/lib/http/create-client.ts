import type { ApiError } from './api-error';
import { request, type ApiResponse, type HttpMethod } from './request';

export type CallOptions = {
  /** Text of the success popup of a 201/202/204 when the server sends none. */
  successMessage?: string;
  /** No success popup and no error popup (a 401 still ends the session). */
  quiet?: boolean;
};

export type ClientHooks = {
  onSuccess: (response: ApiResponse<unknown>, options: CallOptions) => void;
  onError: (error: ApiError, options: CallOptions) => void;
};

export type ApiClient = {
  get<T>(path: string, options?: CallOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
  delete<T>(path: string, body?: unknown, options?: CallOptions): Promise<T>;
};

export function createClient(hooks: ClientHooks): ApiClient {
  async function call<T>(
    method: HttpMethod,
    path: string,
    body: unknown,
    options: CallOptions = {},
  ): Promise<T> {
    try {
      const response = await request<T>(method, path, body);
      hooks.onSuccess(response, options);
      return response.data;
    } catch (error) {
      // request() only ever throws ApiError.
      hooks.onError(error as ApiError, options);
      throw error;
    }
  }
  return {
    get: (path, options) => call('GET', path, undefined, options),
    post: (path, body, options) => call('POST', path, body ?? {}, options),
    put: (path, body, options) => call('PUT', path, body ?? {}, options),
    delete: (path, body, options) => call('DELETE', path, body, options),
  };
}
