/** What other features may use of attended runs (lint: no reaching into a feature's files). */
export { MY_ROBOTS_PATH } from './paths';
