import type { z } from 'zod';
import type { FieldError, MessageKey } from '@rota/contract';

/** Every error the API answers, by stable code, and the one place that gives each its status. */
export const ERROR_STATUS = {
  invalid_input: 400,
  invalid_json: 400,
  /** A JSON body nested deeper than MAX_JSON_DEPTH (http/json-body.ts), refused before parsing. */
  json_too_deep: 400,
  code_invalid: 400,
  /** A wrong TOTP or recovery code. */
  invalid_mfa_code: 400,
  mfa_already_enabled: 409,
  mfa_not_enabled: 409,
  invalid_idempotency_key: 400,
  unauthorized: 401,
  session_expired: 401,
  /** A second-factor challenge unknown, spent or expired: sign in again. */
  mfa_challenge_expired: 401,
  invalid_credentials: 401,
  /** A run trigger's token unknown or revoked. */
  invalid_trigger_token: 401,
  forbidden: 403,
  password_change_required: 403,
  /** A client requires a second factor the caller has not set up. */
  mfa_setup_required: 403,
  /** An account change (password, second factor, sessions, API keys) called with an API key. */
  session_required: 403,
  /** OIDC_LOCAL_LOGIN=false: only platform administrators use the password form. */
  local_login_disabled: 403,
  client_not_member: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  /** A call of an attempt the server already settled (fencing): recorded, not applied. */
  stale_attempt: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  /** A rate limit with its own message (see the key's text). */
  connection_tests_too_many: 429,
  internal_error: 500,
  service_unavailable: 503,
  oidc_not_configured: 404,
  /** No agent was packaged (or its manifest is corrupt): nothing to download. */
  agent_build_missing: 404,
  /** A backup asked of a server on PostgreSQL, whose own tools (pg_dump) back it up. */
  backup_on_postgres: 409,
} as const satisfies Partial<Record<MessageKey, number>>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A field error before translation: `message` is a contract message key. */
export interface FieldIssue {
  field: string;
  message: MessageKey | string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly fieldErrors?: FieldIssue[],
    /** Seconds until a throttled caller may retry. */
    readonly retryAfter?: number,
  ) {
    super(code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

/** A schema's issues as field errors (`a.b` paths, the issue's message key). */
export const fieldIssuesOf = (error: z.ZodError): FieldIssue[] =>
  error.issues.map((issue) => ({ field: issue.path.join('.'), message: issue.message }));

export const notFound = () => new AppError('not_found');
export const forbidden = () => new AppError('forbidden');
export const invalidField = (field: string, message: MessageKey) =>
  new AppError('invalid_input', [{ field, message }]);

export type { FieldError };
