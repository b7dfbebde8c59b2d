import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * The device cookie (OWASP's "device cookies"): set when a sign-in completes, sent back only to
 * the sign-in routes. HttpOnly (no script reads it), SameSite=Strict (no other site's request
 * carries it), Secure whenever the request came over https.
 */
export const DEVICE_COOKIE = 'rota.device';
export const DEVICE_COOKIE_PATH = '/api/user/api/auth/v1';
/** A device unused this long is forgotten (the cookie's own lifetime is the same). */
export const DEVICE_COOKIE_DAYS = 90;

export function readDeviceCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[DEVICE_COOKIE];
  // A token is 43 base64url characters; anything else is not worth a query.
  return value && /^[\w-]{20,100}$/.test(value) ? value : undefined;
}

export function setDeviceCookie(reply: FastifyReply, request: FastifyRequest, token: string) {
  reply.header(
    'set-cookie',
    stringifySetCookie({
      name: DEVICE_COOKIE,
      value: token,
      path: DEVICE_COOKIE_PATH,
      maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
      httpOnly: true,
      secure: request.protocol === 'https',
      sameSite: 'strict',
    }),
  );
}
