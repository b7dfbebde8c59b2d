import { useMutation, useQueryClient } from '@tanstack/react-query';
import { STOP_GRACE_DEFAULT_SECONDS } from '@rota/contract';
import { api } from '../../../lib/http';
import { dashboardKeys } from '../../dashboard';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/**
 * POST stop `{id, grace_seconds}` → 202 `{message}` (HISTORIC.UPDATE): a queued execution is
 * cancelled at once; a running robot gets SIGTERM and the grace before its tree is killed.
 */
export function stopExecution(
  id: number,
  graceSeconds: number = STOP_GRACE_DEFAULT_SECONDS,
): Promise<{ message: string }> {
  return api.post(`${ACTIVITY_BASE}/stop`, { id, grace_seconds: graceSeconds });
}

export function useStopExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => stopExecution(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}
