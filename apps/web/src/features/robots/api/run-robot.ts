import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotRun, RunResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from '../../activity';
import { dashboardKeys } from '../../dashboard';
import { ROBOT_BASE } from './paths';

/**
 * POST run `{id, rota_vms_id?, priority?, timeout_minutes?, retries?}` (ROBOS.UPDATE) → 201
 * `{message, data: {execution_id}}`. No success popup: the caller's toast links to the execution.
 */
export function runRobot(body: RobotRun): Promise<RunResponse> {
  return api.post<RunResponse>(`${ROBOT_BASE}/run`, body, { quietSuccess: true });
}

export function useRunRobot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runRobot,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: activityKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}
