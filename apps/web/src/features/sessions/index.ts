/** What other features may use of sessions (lint: no reaching into a feature's files). */
export { sessionKeys } from './api/keys';
export { SESSIONS_PATH } from './paths';
