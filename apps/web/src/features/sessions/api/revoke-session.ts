import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { sessionKeys } from './keys';
import { SESSIONS_BASE } from './paths';

/** POST revoke `{id}`: that browser is signed out at its next request. */
export function revokeSession(id: number): Promise<{ message: string }> {
  return api.post(`${SESSIONS_BASE}/revoke`, { id }, { announce: true });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
