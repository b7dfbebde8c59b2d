/** What other features may use of API keys (lint: no reaching into a feature's files). */
export { apiKeyKeys } from './api/keys';
export { OneTimeSecretModal } from './components/one-time-secret';
export { TimeAgo } from './components/time-ago';
export { API_KEYS_PATH } from './paths';
