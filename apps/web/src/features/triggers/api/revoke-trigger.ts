import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { triggerKeys } from './keys';
import { TRIGGER_BASE } from './paths';

/** POST revoke `{id}`: its token stops working; the trigger stays listed as revoked. */
export function revokeTrigger(id: number): Promise<{ message: string }> {
  return api.post(`${TRIGGER_BASE}/revoke`, { id }, { announce: true });
}

export function useRevokeTrigger() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeTrigger,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: triggerKeys.all }),
  });
}
