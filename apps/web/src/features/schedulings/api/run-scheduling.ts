import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RunResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from '../../activity';
import { dashboardKeys } from '../../dashboard';
import { SCHEDULING_BASE } from './paths';

/**
 * POST run `{id}` (AGENDAMENTOS.UPDATE) → 201 `{message, data: {execution_id}}`: the robot runs
 * now with the scheduling's priority, timeout, retries and VMs. The caller's toast announces it.
 */
export function runScheduling(id: number): Promise<RunResponse> {
  return api.post<RunResponse>(`${SCHEDULING_BASE}/run`, { id }, { quietSuccess: true });
}

export function useRunScheduling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runScheduling,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}
