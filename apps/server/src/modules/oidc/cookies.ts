import type { SecretBox } from '../../lib/secret-box.js';
import type { OidcAttempt } from './oidc-client.js';

/** The attempt's cookie: sealed, HttpOnly, sent back to the OIDC routes only. */
export const ATTEMPT_COOKIE = 'rota.oidc';
export const ATTEMPT_COOKIE_PATH = '/api/user/api/auth/v1/oidc';
export const ATTEMPT_TTL_SECONDS = 10 * 60;

/** One cookie's value from a Cookie header (the server has no cookie plugin; two cookies suffice). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function serializeCookie(
  name: string,
  value: string,
  options: { path: string; maxAge: number; httpOnly: boolean; secure: boolean },
): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    'SameSite=Lax',
    ...(options.httpOnly ? ['HttpOnly'] : []),
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The attempt sealed with its expiry: tampered, foreign or old, it does not open. */
export function sealAttempt(box: SecretBox, attempt: OidcAttempt, now = Date.now()): string {
  return box.seal(JSON.stringify({ ...attempt, exp: now + ATTEMPT_TTL_SECONDS * 1000 }));
}

export function openAttempt(
  box: SecretBox,
  sealed: string | undefined,
  now = Date.now(),
): OidcAttempt | null {
  if (!sealed) return null;
  try {
    const value = JSON.parse(box.open(sealed)) as Partial<OidcAttempt> & { exp?: number };
    if (typeof value.exp !== 'number' || value.exp < now) return null;
    const { state, nonce, verifier, returnTo, link } = value;
    if (![state, nonce, verifier, returnTo].every((v) => typeof v === 'string')) return null;
    const attempt = { state: state!, nonce: nonce!, verifier: verifier!, returnTo: returnTo! };
    if (link === undefined) return attempt;
    if (!Number.isInteger(link?.users_id) || !Number.isInteger(link?.sessions_id)) return null;
    return { ...attempt, link: { users_id: link.users_id, sessions_id: link.sessions_id } };
  } catch {
    return null;
  }
}

/** A same-origin path (`/x`, not `//host` nor `/\host`), else the dashboard. */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2000) return '/dashboard';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return '/dashboard';
  }
  // Control characters could split a header or be read as a host by a lenient browser.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    return '/dashboard';
  }
  return value;
}
