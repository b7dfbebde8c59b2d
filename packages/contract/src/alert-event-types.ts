/*
 * Apart from alerts.ts, which declares schemas: the console's shell labels these in its bell and
 * must not evaluate zod before its first paint.
 */

/** What an alert rule can be told of. */
export const ALERT_EVENT_TYPES = [
  'execution.application_error',
  'execution.business_error',
  'execution.timeout',
  'execution.stalled',
  'agent.lost',
  'agent.back',
  'task.at_risk',
  'task.breached',
  'scheduling.missed',
] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];
