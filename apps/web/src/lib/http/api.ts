import { TIMINGS } from '@rota/contract';
import { i18n } from '../i18n';
import { navigateTo } from '../navigation';
import { showErrorPopup, showSuccessPopup } from '../notify';
import { signInPath } from '../paths';
import { clearToken } from '../session';
import { createClient } from './create-client';

let redirectTimer: ReturnType<typeof setTimeout> | undefined;

function messageOf(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}

/**
 * True from a 401 until its redirect to sign-in: the token is already gone, but the page stays
 * so the popup can be read. The shell asks, since `me` may be answered 401 before it mounts (the
 * entry starts it early) and it would otherwise leave for sign-in at once.
 */
export function isLeavingAfterUnauthorized(): boolean {
  return redirectTimer !== undefined;
}

/**
 * A 401: say why, forget the token, and leave for sign-in a few seconds later so the
 * user can read the popup. Concurrent 401s share one popup and one timer. Exported for the
 * live-events stream, which calls `fetch` itself but ends the session the same way.
 */
export function endSessionAfterUnauthorized(message: string): void {
  clearToken();
  if (redirectTimer !== undefined) return;
  showErrorPopup(message, { id: 'session-unauthorized' });
  const from = `${window.location.pathname}${window.location.search}`;
  redirectTimer = setTimeout(() => {
    redirectTimer = undefined;
    navigateTo(signInPath(from));
  }, TIMINGS.unauthorizedRedirectMs);
}

/** The console's client: every outcome is reported to the user (popups, toasts, the 401 popup). */
export const api = createClient({
  onSuccess({ status, data }, options) {
    if (options.quiet || options.quietSuccess) return;
    if (status === 201) {
      showSuccessPopup(messageOf(data) ?? options.successMessage ?? i18n.t('http.created'));
    } else if (status === 202) {
      showSuccessPopup(messageOf(data) ?? options.successMessage ?? i18n.t('http.removed'));
    } else if (status === 204) {
      showSuccessPopup(options.successMessage ?? i18n.t('http.changed'));
    } else if (status === 200 && options.announce) {
      showSuccessPopup(messageOf(data) ?? options.successMessage ?? i18n.t('http.changed'));
    }
  },
  onError(error, options) {
    if (error.status === 401) {
      endSessionAfterUnauthorized(error.message);
      return;
    }
    // A 400 carries field errors: the form shows them under its fields, not in a popup.
    if (error.status === 400 || options.quiet) return;
    showErrorPopup(error.message);
  },
});
