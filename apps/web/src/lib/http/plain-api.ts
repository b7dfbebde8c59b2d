import { navigateTo } from '../navigation';
import { SIGN_IN_PATH, signInPath } from '../paths';
import { clearToken } from '../session';
import { createClient } from './create-client';

/**
 * The login pages' client, the second one: no popups, so a wrong password or a
 * throttled attempt shows inline on the form; a 401 elsewhere still sends the user to sign-in.
 */
export const plainApi = createClient({
  onSuccess() {},
  onError(error) {
    if (error.status !== 401) return;
    clearToken();
    if (window.location.pathname !== SIGN_IN_PATH) {
      navigateTo(signInPath(`${window.location.pathname}${window.location.search}`));
    }
  },
});
