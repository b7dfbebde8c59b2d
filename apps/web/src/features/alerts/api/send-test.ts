import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertDelivery } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_BASE } from './paths';

/**
 * POST test `{id}` → `{message, data}`: the server awaits the first attempt, so the delivery
 * answered says whether it arrived (code) or why not (last_error).
 */
export function sendAlertTest(id: number): Promise<{ message: string; data: AlertDelivery }> {
  return api.post(`${ALERT_BASE}/test`, { id }, { quietSuccess: true });
}

export function useSendAlertTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendAlertTest,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: alertKeys.deliveries() }),
  });
}
