import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SchedulingUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { schedulingKeys } from './keys';
import { SCHEDULING_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204; `vms` replaces the whole set. Live schedulings only. */
export function updateScheduling(body: SchedulingUpdate): Promise<void> {
  return api.put<void>(`${SCHEDULING_BASE}/update`, body);
}

export function useUpdateScheduling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateScheduling,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: schedulingKeys.all }),
  });
}
