/** What other features may use of alerts (lint: no reaching into a feature's files). */
export { alertKeys } from './api/keys';
export { AlertBell } from './components/alert-bell';
export { ALERTS_PATH } from './paths';
