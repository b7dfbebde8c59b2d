/** What other features may use of activity (lint: no reaching into a feature's files). */
export { activityKeys } from './api/keys';
export { AttendedBadge } from './components/attended-badge';
export { showExecutionStartedToast } from './components/execution-started-toast';
export {
  CATEGORY_COLORS,
  ExecutionStatusBadge,
  useExecutionStatusLabels,
} from './components/execution-status';
export { LatestExecutions } from './components/latest-executions';
export { RunMessage, useRunMessage } from './components/run-message';
export { useActivityTranslation } from './i18n';
export { ACTIVITY_PATH } from './paths';
