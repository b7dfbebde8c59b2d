/** What other features may use of live (lint: no reaching into a feature's files). */
export { LiveIndicator } from './components/live-indicator';
export { useLiveStatus } from './use-live-status';
export { useLiveUpdates } from './use-live-updates';
