import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { apiKeyKeys } from './keys';
import { API_KEY_BASE } from './paths';

/** POST revoke `{id}`: the key stops working at once; it stays listed as revoked. */
export function revokeApiKey(id: number): Promise<{ message: string }> {
  return api.post(`${API_KEY_BASE}/revoke`, { id }, { announce: true });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
