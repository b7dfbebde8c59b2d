import type { ApiError } from './api-error';
import {
  request,
  requestBlob,
  type ApiResponse,
  type DownloadedFile,
  type HttpMethod,
} from './request';

export type CallOptions = {
  /** Text of the success popup of a 201/202/204 when the server sends none. */
  successMessage?: string;
  /** No success popup and no error popup (a 401 still ends the session). */
  quiet?: boolean;
  /**
   * No success popup, but failures are reported as usual: for callers that announce the
   * outcome themselves (run now's toast links to the execution it started).
   */
  quietSuccess?: boolean;
  /**
   * Also show a success popup for a 200 (bulk actions such as task retry answer 200 with a
   * `message`); the popup reads the answer's message, else `successMessage`.
   */
  announce?: boolean;
  /**
   * Sent at once, even while the page's first paint is pending (lib/first-paint.ts): for what that
   * paint waits for, the current user.
   */
  early?: boolean;
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
  /** POST `multipart/form-data` (file uploads); the answer is JSON like any other call. */
  upload<T>(path: string, form: FormData, options?: CallOptions): Promise<T>;
  /** POST whose answer is a file (downloads); errors still arrive as JSON and reject. */
  download(path: string, body?: unknown, options?: CallOptions): Promise<DownloadedFile>;
  /** GET whose answer is a file (`?id=` downloads, images shown through object URLs). */
  file(path: string, options?: CallOptions): Promise<DownloadedFile>;
};

export function createClient(hooks: ClientHooks): ApiClient {
  async function run<T>(perform: () => Promise<ApiResponse<T>>, options: CallOptions): Promise<T> {
    try {
      const response = await perform();
      hooks.onSuccess(response, options);
      return response.data;
    } catch (error) {
      // request() and requestBlob() only ever throw ApiError.
      hooks.onError(error as ApiError, options);
      throw error;
    }
  }
  const call = <T>(method: HttpMethod, path: string, body: unknown, options: CallOptions = {}) =>
    run(() => request<T>(method, path, body, options.early), options);

  return {
    get: (path, options) => call('GET', path, undefined, options),
    post: (path, body, options) => call('POST', path, body ?? {}, options),
    put: (path, body, options) => call('PUT', path, body ?? {}, options),
    delete: (path, body, options) => call('DELETE', path, body, options),
    upload: <T>(path: string, form: FormData, options: CallOptions = {}) =>
      run(() => request<T>('POST', path, form), options),
    download: (path, body, options = {}) =>
      run(() => requestBlob('POST', path, body ?? {}), options),
    file: (path, options = {}) => run(() => requestBlob('GET', path), options),
  };
}
