/** What other features may use of auth (lint: no reaching into a feature's files). */
export { authKeys } from './api/keys';
export { AuthCard } from './components/auth-card';
export { ForcedPasswordChange } from './components/lazy-forced-password-change';
export { useCan } from './hooks/use-can';
export { useCurrentUser } from './hooks/use-current-user';
export { useSignOut } from './hooks/use-sign-out';
