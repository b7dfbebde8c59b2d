import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isMessageRef, translateMessage, type ErrorResponse, type Language } from '@rota/contract';
import { isUniqueViolation } from '../lib/db-errors.js';
import { AppError, ERROR_STATUS, type ErrorCode, type FieldIssue } from '../lib/errors.js';

/** Fastify's own 4xx errors, by their code, as ours. */
const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};

export function translateIssues(lang: Language, issues: FieldIssue[]) {
  return issues.map((issue) => ({
    field: issue.field,
    message: translateMessage(lang, isMessageRef(issue.message) ? issue.message : 'invalid_value'),
  }));
}

/** What an AppError answers, in the caller's language (HTTP and the agent stream alike). */
export function errorBody(lang: Language, error: AppError): ErrorResponse {
  const body: ErrorResponse = { code: error.code, message: translateMessage(lang, error.code) };
  if (error.fieldErrors) body.errors = translateIssues(lang, error.fieldErrors);
  return body;
}

/**
 * A 5xx answer (HTTP and the agent stream alike): what failed stays in the log under
 * `requestId`, which the answer carries for the operator to quote. Anything not an AppError is
 * an internal error, whatever it said.
 */
export function failureBody(lang: Language, requestId: string, error?: unknown): ErrorResponse {
  const failure = error instanceof AppError ? error : new AppError('internal_error');
  return { ...errorBody(lang, failure), request_id: requestId };
}

/** Field errors of a failed validation, each (field, message) once. */
export function uniqueIssues(all: FieldIssue[]): FieldIssue[] {
  // A field's own rule and the app-wide NUL check may say the same thing once each.
  return all.filter(
    (issue, i) =>
      all.findIndex((o) => o.field === issue.field && o.message === issue.message) === i,
  );
}

function send(reply: FastifyReply, lang: Language, error: AppError, requestId?: string) {
  const body = requestId ? failureBody(lang, requestId, error) : errorBody(lang, error);
  if (error.retryAfter) void reply.header('retry-after', String(error.retryAfter));
  return reply.status(error.status).send(body);
}

/** One place that turns whatever was thrown into the API's error answers; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const lang = request.lang ?? 'en';
    if (error instanceof AppError) {
      if (error.status < 500) return send(reply, lang, error);
      request.log.error({ err: error }, 'request failed');
      return send(reply, lang, error, request.id);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const all = error.validation.map((v) => ({
        field: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'invalid_value',
      }));
      return send(reply, lang, new AppError('invalid_input', uniqueIssues(all)));
    }
    const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (mapped) return send(reply, lang, new AppError(mapped));
    if (isUniqueViolation(error)) {
      return send(reply, lang, new AppError('conflict'));
    }
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
      return send(reply, lang, new AppError('invalid_json'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      const code = (Object.entries(ERROR_STATUS).find(([, s]) => s === status)?.[0] ??
        'invalid_input') as ErrorCode;
      return reply
        .status(status)
        .send({ code, message: translateMessage(lang, code) } satisfies ErrorResponse);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(failureBody(lang, request.id));
  });
}
