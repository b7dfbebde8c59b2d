import Cookies from 'js-cookie';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '@rota/contract';

/** SPEC §9: the session token lives in a cookie so a reload or a new tab stays signed in. */
export function getToken(): string | undefined {
  return Cookies.get(SESSION_COOKIE) || undefined;
}

export function setToken(token: string): void {
  Cookies.set(SESSION_COOKIE, token, {
    path: '/',
    // js-cookie counts `expires` in days.
    expires: SESSION_TTL_SECONDS / 86400,
    sameSite: 'lax',
    secure: window.location.protocol === 'https:',
  });
}

export function clearToken(): void {
  Cookies.remove(SESSION_COOKIE, { path: '/' });
}
