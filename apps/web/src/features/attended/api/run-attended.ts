import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AttendedRun, RunResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys } from '../../activity';
import { ATTENDED_BASE } from './paths';

/**
 * POST run `{id, rota_nodes_id?, task_data?}` (ROBOS.UPDATE) → 201 `{message, data: {execution_id}}`.
 * No success popup: the caller's toast links to the execution.
 */
export function runAttended(body: AttendedRun): Promise<RunResponse> {
  return api.post<RunResponse>(`${ATTENDED_BASE}/run`, body, { quietSuccess: true });
}

export function useRunAttended() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAttended,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: activityKeys.all }),
  });
}
