import { ALERT_EVENT_PERMISSIONS, hasPermissions, type LiveEvent } from '@rota/contract';
import type { TenantScope } from '../../lib/tenant-scope.js';

/**
 * Whether a user of `scope` holding `permissions` hears of a live event: agents' changes need the
 * agents' list, as the agents page and the dashboard's agent figures do; a bell event needs what
 * its type needs in the feed (ALERT_EVENT_PERMISSIONS); whatever names a robot, that the scope
 * sees it. Run and task events carry no figures beyond ids and stay for everyone who sees the
 * robot: the dashboard, open to every user, refreshes on them.
 */
export function hearsLiveEvent(
  event: LiveEvent,
  scope: TenantScope,
  permissions: readonly string[],
): boolean {
  switch (event.type) {
    case 'agent':
      return hasPermissions(permissions, ['AGENTES.LIST']);
    case 'alert':
      return (
        hasPermissions(permissions, [ALERT_EVENT_PERMISSIONS[event.event_type]]) &&
        (event.rota_robots_id === null || scope.seesRobot(event.rota_robots_id))
      );
    default:
      return scope.seesRobot(event.rota_robots_id);
  }
}
