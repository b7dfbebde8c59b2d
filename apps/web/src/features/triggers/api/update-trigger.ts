import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TriggerUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { triggerKeys } from './keys';
import { TRIGGER_BASE } from './paths';

/** PUT update `{id, name}` → 204: a new name; the token stays. */
export function updateTrigger(body: TriggerUpdate): Promise<void> {
  return api.put<void>(`${TRIGGER_BASE}/update`, body);
}

export function useUpdateTrigger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTrigger,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
