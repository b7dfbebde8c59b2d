import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { dashboardKeys } from '../../dashboard';
import { activityKeys } from './keys';
import { ACTIVITY_BASE } from './paths';

/**
 * POST fail `{id}` → 200 `{message}` (HISTORIC.UPDATE): a running execution whose agent is gone
 * ends now as an application error "ended by <user>"; its agent is fenced.
 */
export function failExecution(id: number): Promise<{ message: string }> {
  return api.post(`${ACTIVITY_BASE}/fail`, { id });
}

export function useFailExecution() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: failExecution,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}
