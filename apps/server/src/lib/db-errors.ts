/** PostgreSQL error codes we turn into answers (same on PGlite and a server). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/** ON DELETE RESTRICT raises this rather than 23503. */
const RESTRICT_VIOLATION = '23001';

function pgCode(error: unknown): string | undefined {
  // Drizzle wraps driver errors; the code sits on the error or on its cause.
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgCode(error) === UNIQUE_VIOLATION;
/** A row is still referenced (ON DELETE NO ACTION or RESTRICT). */
export const isForeignKeyViolation = (error: unknown) => {
  const code = pgCode(error);
  return code === FOREIGN_KEY_VIOLATION || code === RESTRICT_VIOLATION;
};
