import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EnvironmentUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { environmentKeys } from './keys';
import { ENVIRONMENT_BASE } from './paths';

/**
 * PUT update `{id, ...changes}` → 204. A secret sent replaces the stored one, `null` clears it,
 * leaving it out keeps it.
 */
export function updateEnvironment(body: EnvironmentUpdate): Promise<void> {
  return api.put<void>(`${ENVIRONMENT_BASE}/update`, body);
}

export function useUpdateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEnvironment,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
