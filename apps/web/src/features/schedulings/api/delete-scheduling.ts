import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { schedulingKeys } from './keys';
import { SCHEDULING_BASE } from './paths';

/** POST delete `{id}` → 202: soft, `restore` brings it back. */
export function deleteScheduling(id: number): Promise<{ message: string }> {
  return api.post(`${SCHEDULING_BASE}/delete`, { id });
}

export function useDeleteScheduling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteScheduling,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: schedulingKeys.all }),
  });
}
