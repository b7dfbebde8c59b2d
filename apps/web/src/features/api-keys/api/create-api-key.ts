import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKeyCreate, ApiKeyWithSecret } from '@rota/contract';
import { api } from '../../../lib/http';
import { apiKeyKeys } from './keys';
import { API_KEY_BASE } from './paths';

/** POST create → 201 `{message, data}` with the key itself, this one time (stored hashed). */
export function createApiKey(
  body: ApiKeyCreate,
): Promise<{ message: string; data: ApiKeyWithSecret }> {
  return api.post(`${API_KEY_BASE}/create`, body);
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    // The answer holds the key: once the page has read it, nothing should keep it around.
    gcTime: 0,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
