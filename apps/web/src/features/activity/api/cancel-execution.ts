import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { dashboardKeys } from '../../dashboard';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/**
 * POST cancel `{id}` → 202 `{message}` (HISTORIC.UPDATE): a queued execution is cancelled at once,
 * a running one when its agent has stopped the robot.
 */
export function cancelExecution(id: number): Promise<{ message: string }> {
  return api.post(`${ACTIVITY_BASE}/cancel`, { id });
}

export function useCancelExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelExecution,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}
