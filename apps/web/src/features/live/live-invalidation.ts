import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from '@rota/contract';
import { activityKeys } from '../activity';
import { agentKeys } from '../agents';
import { alertKeys } from '../alerts';
import { dashboardKeys } from '../dashboard';
import { taskKeys } from '../tasks';
import { vmKeys } from '../vms';

/**
 * What a live event makes stale. Events say what changed, not the new row: the pages refetch
 * what they show (only queries on screen refetch; the others are marked stale).
 */
export function liveEventKeys(event: LiveEvent): QueryKey[] {
  switch (event.type) {
    case 'execution':
      return [
        // The activity list and every robot's latest executions.
        activityKeys.lists(),
        activityKeys.detail(event.execution_id),
        // A finished run flushes its last lines.
        activityKeys.logs(event.execution_id),
        dashboardKeys.all,
      ];
    case 'progress':
      // The run's bar and "last activity" in the list and on its page.
      return [activityKeys.lists(), activityKeys.detail(event.execution_id)];
    case 'log':
      // Its page's "last activity" moves with the lines (the list waits for other events).
      return [activityKeys.logs(event.execution_id), activityKeys.detail(event.execution_id)];
    case 'agent':
      // A VM is active while one of its agents is.
      return [agentKeys.lists(), vmKeys.all, dashboardKeys.all];
    case 'task':
      // A task turned at risk or breached: its lists' badges and the dashboard's counts.
      return [taskKeys.lists(), dashboardKeys.all];
    case 'alert':
      // The bell's feed, and an open delivery log (the event may have made a delivery).
      return [alertKeys.feed(), alertKeys.deliveries()];
  }
}

/** After the stream comes back: whatever may have changed while it was down. */
export const RECONNECT_KEYS: readonly QueryKey[] = [
  activityKeys.all,
  dashboardKeys.all,
  taskKeys.lists(),
  agentKeys.lists(),
  vmKeys.all,
];

/**
 * Collects the keys of a burst of events and invalidates each once, `delayMs` after the burst
 * quietens, but never later than `maxWaitMs` after its first event (a steady log stream still
 * refreshes the tail about once a second).
 */
export function createLiveInvalidator(
  queryClient: QueryClient,
  { delayMs = 300, maxWaitMs = 1000 }: { delayMs?: number; maxWaitMs?: number } = {},
) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstAt = 0;

  function flush() {
    timer = undefined;
    const keys = [...pending.values()];
    pending.clear();
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  }

  function schedule(keys: readonly QueryKey[]) {
    for (const key of keys) pending.set(JSON.stringify(key), key);
    const now = Date.now();
    if (timer === undefined) firstAt = now;
    clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, Math.min(delayMs, firstAt + maxWaitMs - now)));
  }

  return {
    handle: (event: LiveEvent) => schedule(liveEventKeys(event)),
    refreshAll: () => schedule(RECONNECT_KEYS),
    dispose() {
      clearTimeout(timer);
      timer = undefined;
      pending.clear();
    },
  };
}
