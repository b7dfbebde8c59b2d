import type { QueryClient } from '@tanstack/react-query';

/**
 * A team change may change what the signed-in user sees (they may be one of its members): every
 * robot, task, scheduling and execution list could differ. Everything is marked stale; only what
 * is on screen refetches now.
 */
export function invalidateAfterTeamChange(queryClient: QueryClient) {
  void queryClient.invalidateQueries();
}
