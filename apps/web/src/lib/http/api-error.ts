import type { FieldError } from '@rota/contract';

/** Every failed call rejects with this, so forms and pages need no knowledge of `fetch`. */
export class ApiError extends Error {
  readonly status: number;
  /** Stable machine code from the server (`invalid_credentials`, `forbidden`…), if any. */
  readonly code: string | undefined;
  /** Field errors of a 400, for forms to show under each field. */
  readonly errors: FieldError[];
  readonly data: unknown;

  constructor(
    message: string,
    options: { status: number; code?: string; errors?: FieldError[]; data?: unknown },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.errors = options.errors ?? [];
    this.data = options.data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The text is the response's message, else the error's own message. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return '';
}
