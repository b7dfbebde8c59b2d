/** What other features may use of robots (lint: no reaching into a feature's files). */
export { robotFieldsOfRobotQueryOptions } from './api/list-robot-fields';
export { robotsQueryOptions } from './api/list-robots';
export { RobotSelect } from './components/robot-select';
export { robotPath } from './paths';
