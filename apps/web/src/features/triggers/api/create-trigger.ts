import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TriggerCreate, TriggerWithToken } from '@rota/contract';
import { api } from '../../../lib/http';
import { triggerKeys } from './keys';
import { TRIGGER_BASE } from './paths';

/** POST create → 201 `{message, data}` with the token, this one time (stored hashed). */
export function createTrigger(
  body: TriggerCreate,
): Promise<{ message: string; data: TriggerWithToken }> {
  return api.post(`${TRIGGER_BASE}/create`, body);
}

export function useCreateTrigger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTrigger,
    // The answer holds the token: once the page has read it, nothing should keep it around.
    gcTime: 0,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
