import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { schedulingKeys } from './keys';
import { SCHEDULING_BASE } from './paths';

/** POST restore `{id}` → 200 `{message}` ("Restaurado!"), announced like the other answers. */
export function restoreScheduling(id: number): Promise<{ message: string }> {
  return api.post(`${SCHEDULING_BASE}/restore`, { id }, { announce: true });
}

export function useRestoreScheduling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreScheduling,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: schedulingKeys.all }),
  });
}
