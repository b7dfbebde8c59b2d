import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { alertKeys } from './keys';
import { ALERT_FEED_BASE } from './paths';

/** POST seen `{up_to}` → 204: everything up to that event counts as read (never backwards). */
export function markAlertsSeen(upTo: number): Promise<void> {
  return api.post<void>(`${ALERT_FEED_BASE}/seen`, { up_to: upTo }, { quiet: true });
}

export function useMarkAlertsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAlertsSeen,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: alertKeys.feed() }),
  });
}
