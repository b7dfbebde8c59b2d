import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_BASE } from './paths';

/** POST delete `{id}` → 202 `{message}` (its deliveries go with it). */
export function deleteAlert(id: number): Promise<{ message: string }> {
  return api.post(`${ALERT_BASE}/delete`, { id });
}

export function useDeleteAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAlert,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alertKeys.lists() }),
  });
}
