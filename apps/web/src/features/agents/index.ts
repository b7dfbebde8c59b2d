/** What other features may use of agents (lint: no reaching into a feature's files). */
export { agentKeys } from './api/keys';
export { AGENTS_PATH, agentsOfVmPath } from './paths';
export { relativeTime } from './components/last-seen';
