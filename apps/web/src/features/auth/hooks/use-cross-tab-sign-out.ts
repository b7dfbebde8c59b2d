import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { subscribeSessionMessages } from '../../../lib/broadcast';
import { SIGN_IN_PATH } from '../../../lib/paths';
import { clearToken } from '../../../lib/session';

/** When another tab signs out, this one follows. */
export function useCrossTabSignOut() {
  const navigate = useNavigate();
  useEffect(
    () =>
      subscribeSessionMessages(() => {
        // The cookie is shared and already gone; clearing again covers a racing sign-in write.
        clearToken();
        void navigate(SIGN_IN_PATH, { replace: true });
      }),
    [navigate],
  );
}
