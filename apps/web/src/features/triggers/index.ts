/** What other features may use of run triggers (lint: no reaching into a feature's files). */
export { triggerKeys } from './api/keys';
export { RobotTriggers } from './components/robot-triggers';
