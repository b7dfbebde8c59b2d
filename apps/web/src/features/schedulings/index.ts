/** What other features may use of schedulings (lint: no reaching into a feature's files). */
export { schedulingKeys } from './api/keys';
export { SCHEDULINGS_PATH } from './paths';
