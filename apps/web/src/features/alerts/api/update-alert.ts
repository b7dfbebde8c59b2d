import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_BASE } from './paths';

/**
 * PUT update `{id, ...changes}` → 204. A webhook secret or a chat URL left out keeps the stored
 * one while the channel's type stays the same.
 */
export function updateAlert(body: AlertUpdate): Promise<void> {
  return api.put<void>(`${ALERT_BASE}/update`, body);
}

export function useUpdateAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAlert,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alertKeys.lists() }),
  });
}
