import { useState } from 'react';
import { useNavigate } from 'react-router';
import { postSessionMessage } from '../../../lib/broadcast';
import { SIGN_IN_PATH } from '../../../lib/paths';
import { clearToken } from '../../../lib/session';
import { logout } from '../api/logout';

/**
 * Sign-out: tell the server, forget the token, sign the other tabs out, go to sign-in.
 * A failed logout call changes nothing here: the user asked to leave.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function signOut() {
    setPending(true);
    try {
      await logout();
    } catch (_error) {
      // The token may already be revoked or the server unreachable; the local session ends anyway.
    }
    clearToken();
    postSessionMessage({ type: 'sign-out' });
    // The sign-in page drops the cached data of the session once the shell has unmounted.
    await navigate(SIGN_IN_PATH, { replace: true });
  }

  return { signOut, pending };
}
