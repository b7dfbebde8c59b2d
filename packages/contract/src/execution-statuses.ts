/*
 * The execution statuses and how the dashboard counts them, apart from the schemas that use
 * them (executions.ts, status-items.ts): the console's dashboard and status badges need these
 * constants before their first paint, and importing them must not evaluate zod.
 */

/** Every run of a robot is an execution in one of these states. */
export const EXECUTION_STATUSES = [
  'queued',
  'processing',
  'success',
  'business_error',
  'application_error',
  'timeout',
  'cancelled',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/** Statuses an execution never leaves. */
export const FINAL_EXECUTION_STATUSES = [
  'success',
  'business_error',
  'application_error',
  'timeout',
  'cancelled',
] as const satisfies readonly ExecutionStatus[];

/** Dashboard categories; Idle is a robot with no execution in the range. */
export const DASHBOARD_CATEGORIES = ['process', 'failure', 'others', 'idle'] as const;
export type DashboardCategory = (typeof DASHBOARD_CATEGORIES)[number];

/** The default status → category mapping; status items may change it per client. */
export const DEFAULT_STATUS_CATEGORIES: Record<
  ExecutionStatus,
  Exclude<DashboardCategory, 'idle'>
> = {
  queued: 'process',
  processing: 'process',
  success: 'others',
  cancelled: 'others',
  business_error: 'failure',
  application_error: 'failure',
  timeout: 'failure',
};

/** A category an execution status can count under (Idle is for robots without executions). */
export const STATUS_ITEM_CATEGORIES = DASHBOARD_CATEGORIES.filter(
  (c): c is Exclude<DashboardCategory, 'idle'> => c !== 'idle',
);
export type StatusItemCategory = (typeof STATUS_ITEM_CATEGORIES)[number];

/** Colours the seeded items use: Process blue, Failure red (timeouts orange), Others green/grey. */
export const DEFAULT_STATUS_COLORS: Record<ExecutionStatus, string> = {
  queued: '#228be6',
  processing: '#15aabf',
  success: '#40c057',
  cancelled: '#868e96',
  business_error: '#fab005',
  application_error: '#fa5252',
  timeout: '#fd7e14',
};

/** Every client starts with one item per status; `label` null reads the status name. */
export const DEFAULT_STATUS_ITEMS = EXECUTION_STATUSES.map((status) => ({
  status,
  category: DEFAULT_STATUS_CATEGORIES[status],
  color: DEFAULT_STATUS_COLORS[status],
  label: null,
}));
