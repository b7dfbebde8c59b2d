/** Keys whose values never reach the audit log, whatever the entity (passwords, tokens, hashes). */
const SECRET_KEY = /pass|token|secret|hash|sealed/i;
/** Flags about a secret, not the secret: what a password change did must stay readable. */
const FLAG_KEY = /^has_|^password_change_required$/;

/**
 * A copy of `value` without secrets, for the audit log. The answers audited already leave
 * secrets out (`has_password`, `has_db_pass`); this is the second lock on the same door.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (depth > 6) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.slice(0, 1000).map((v) => redact(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key) && !FLAG_KEY.test(key)) continue;
      if (v === undefined) continue;
      out[key] = redact(v, depth + 1);
    }
    return out;
  }
  return value;
}
