/** What other features may use of clients (lint: no reaching into a feature's files). */
export { useIsPlatformAdmin } from './hooks/use-is-platform-admin';
