import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TriggerWithToken } from '@rota/contract';
import { api } from '../../../lib/http';
import { triggerKeys } from './keys';
import { TRIGGER_BASE } from './paths';

/** POST rotate `{id}` → `{message, data}` with a new token, shown once; the old one stops at once. */
export function rotateTrigger(id: number): Promise<{ message: string; data: TriggerWithToken }> {
  return api.post(`${TRIGGER_BASE}/rotate`, { id }, { announce: true });
}

export function useRotateTrigger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateTrigger,
    gcTime: 0,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
