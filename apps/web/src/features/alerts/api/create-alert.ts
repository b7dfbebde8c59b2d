import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Alert, AlertCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_BASE } from './paths';

/** POST create → 201 `{message, data}`; 400 on fields (`channel.url`…), 409 on a taken name. */
export function createAlert(body: AlertCreate): Promise<{ message: string; data: Alert }> {
  return api.post(`${ALERT_BASE}/create`, body);
}

export function useCreateAlert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAlert,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alertKeys.lists() }),
  });
}
