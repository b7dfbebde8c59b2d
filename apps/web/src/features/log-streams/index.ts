/** What other features may use of log streams (lint: no reaching into a feature's files). */
export { LOG_STREAMS_PATH } from './paths';
