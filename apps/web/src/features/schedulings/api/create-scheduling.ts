import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Scheduling, SchedulingCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { schedulingKeys } from './keys';
import { SCHEDULING_BASE } from './paths';

/**
 * POST create (with `vms: [ids]`) → 201 `{message, data}`; 409 `duplicate_scheduling_name` on
 * `name`; 400 `robot_not_found` / `vm_not_found`.
 */
export function createScheduling(
  body: SchedulingCreate,
): Promise<{ message: string; data: Scheduling }> {
  return api.post(`${SCHEDULING_BASE}/create`, body);
}

export function useCreateScheduling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createScheduling,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: schedulingKeys.all }),
  });
}
