/** Paths of the bare login pages; the shell's own routes come from the contract's ROUTE_PERMISSIONS. */
export const SIGN_IN_PATH = '/login/sign-in';
export const RECOVER_PASSWORD_PATH = '/login/recover-password';
export const REQUEST_ACCESS_PATH = '/login/request-access';
export const CHANGE_PASSWORD_PATH = '/login/change-password';
export const HOME_PATH = '/dashboard';

/**
 * Only a same-origin absolute path may come back through `?redirect=`: `//host` and `/\host`
 * are read by browsers as other origins, and a login page would loop.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return HOME_PATH;
  }
  if (value === '/' || value.startsWith('/login')) return HOME_PATH;
  return value;
}

/** Sign-in URL that brings the user back to `from` afterwards. */
export function signInPath(from?: string): string {
  if (!from || safeRedirect(from) === HOME_PATH) return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?redirect=${encodeURIComponent(from)}`;
}
