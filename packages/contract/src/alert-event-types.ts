/*
 * Apart from alerts.ts, which declares schemas: the console's shell labels these in its bell and
 * must not evaluate zod before its first paint.
 */
import type { Permission } from './permissions.js';

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

/**
 * What a user must hold to see an event in the bell or hear of it live: the list permission of
 * the page that shows what the event is about (Activity for runs, the agents, the tasks, the
 * schedulings), so the bell never tells more than those pages would.
 */
export const ALERT_EVENT_PERMISSIONS = {
  'execution.application_error': 'HISTORIC.LIST',
  'execution.business_error': 'HISTORIC.LIST',
  'execution.timeout': 'HISTORIC.LIST',
  'execution.stalled': 'HISTORIC.LIST',
  'agent.lost': 'AGENTES.LIST',
  'agent.back': 'AGENTES.LIST',
  'task.at_risk': 'ATIVIDADES.LIST',
  'task.breached': 'ATIVIDADES.LIST',
  'scheduling.missed': 'AGENDAMENTOS.LIST',
} as const satisfies Record<AlertEventType, Permission>;

/** The event types a holder of `held` may see. */
export function visibleAlertEventTypes(held: readonly string[] | undefined): AlertEventType[] {
  return ALERT_EVENT_TYPES.filter((type) => held?.includes(ALERT_EVENT_PERMISSIONS[type]));
}
