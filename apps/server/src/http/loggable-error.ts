/**
 * What of an error may be written to the log. A failed query's error carries its parameters
 * (Drizzle's message ends in `params: …`, and keeps them in `params`) and PostgreSQL's carries
 * row values (`detail`, and quoted input in messages such as `invalid input syntax for type
 * integer: "…"`): password hashes, sealed secrets and robot output would end up in the log.
 * Kept: the error's type and code, the SQL text, the names of tables, columns and constraints,
 * and the stack frames.
 */

/** Quoted words PostgreSQL uses for names (kept); any other quoted text is a value (dropped). */
const NAMED =
  /\b(?:constraint|relation|column|table|type|encoding|index|schema|function|operator|database|role|extension|sequence)\s+$/i;

export function scrubMessage(message: string): string {
  // Drizzle: `Failed query: <sql>\nparams: <values>`; the SQL's quotes are identifiers.
  if (message.startsWith('Failed query:')) return message.replace(/\nparams:[\s\S]*$/, '');
  return message.replace(/"([^"]*)"/g, (quoted, _inner, offset: number, whole: string) =>
    NAMED.test(whole.slice(Math.max(0, offset - 40), offset)) ? quoted : '"…"',
  );
}

/** PostgreSQL error fields that name things, never values. */
const SAFE_FIELDS = [
  'code',
  'severity',
  'routine',
  'table',
  'column',
  'constraint',
  'schema',
  'dataType',
  'statusCode',
] as const;

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function loggableError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    return { type: typeof error, message: 'a thrown value that is not an Error', stack: '' };
  }
  const e = error as Error & Record<string, unknown>;
  const out: LoggedError = {
    type: e.constructor?.name ?? 'Error',
    message: scrubMessage(String(e.message ?? '')),
    stack: '',
  };
  for (const field of SAFE_FIELDS) {
    if (e[field] !== undefined && e[field] !== null) out[field] = e[field];
  }
  // Drizzle's DrizzleQueryError: the statement's text (placeholders, no values).
  if (typeof e.query === 'string') out.query = e.query;
  if (typeof e.stack === 'string') {
    out.stack = [
      `${out.type}: ${out.message}`,
      ...e.stack.split('\n').filter((line) => /^\s+at /.test(line)),
    ].join('\n');
  }
  if (e.cause !== undefined && depth < 4) out.cause = loggableError(e.cause, depth + 1);
  return out;
}
