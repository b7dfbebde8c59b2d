import Cookies from 'js-cookie';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '@rota/contract';

/**
 * The cookie as last read, until the current task's microtasks run. Reading `document.cookie` is a
 * synchronous trip to the browser's cookie store and parsing every cookie, and a page's first
 * render asks for it from each component that checks who is signed in (≈50 ms of a phone's first
 * paint); another tab's sign-in or sign-out is still seen by the next task.
 */
let lastRead: { token: string | undefined } | null = null;

function remember(token: string | undefined): string | undefined {
  if (!lastRead) queueMicrotask(() => (lastRead = null));
  lastRead = { token };
  return token;
}

/** The session token lives in a cookie so a reload or a new tab stays signed in. */
export function getToken(): string | undefined {
  return lastRead ? lastRead.token : remember(Cookies.get(SESSION_COOKIE) || undefined);
}

export function setToken(token: string): void {
  Cookies.set(SESSION_COOKIE, token, {
    path: '/',
    // js-cookie counts `expires` in days.
    expires: SESSION_TTL_SECONDS / 86400,
    sameSite: 'lax',
    secure: window.location.protocol === 'https:',
  });
  lastRead = null;
}

export function clearToken(): void {
  Cookies.remove(SESSION_COOKIE, { path: '/' });
  lastRead = null;
}
