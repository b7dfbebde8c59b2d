import { lazy } from 'react';

/**
 * What other features may use of single sign-on (lint: no reaching into a feature's files).
 * The sign-in page imports this, so it holds only the small sign-in part; the mappings page
 * and the no-access page are routes of their own (lazy).
 */
export { OidcSignIn, useLocalSignInShown } from './components/oidc-sign-in';
export { isOidcConfigQuery } from './api/oidc-config';
export { NO_ACCESS_PATH } from './paths';

/** My account's "Link single sign-on" card, in a chunk of its own (the sign-in page imports this). */
export const SsoLinkCard = lazy(() => import('./components/sso-link-card'));
