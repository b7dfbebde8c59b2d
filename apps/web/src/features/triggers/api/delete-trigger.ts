import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { triggerKeys } from './keys';
import { TRIGGER_BASE } from './paths';

/** POST delete `{id}` → 202 `{message}`. */
export function deleteTrigger(id: number): Promise<{ message: string }> {
  return api.post(`${TRIGGER_BASE}/delete`, { id });
}

export function useDeleteTrigger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTrigger,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
