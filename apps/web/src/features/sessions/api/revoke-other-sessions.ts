import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { sessionKeys } from './keys';
import { SESSIONS_BASE } from './paths';

/** POST revoke-others: every session but this one ends. */
export function revokeOtherSessions(): Promise<{ message: string }> {
  return api.post(`${SESSIONS_BASE}/revoke-others`, {}, { announce: true });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
