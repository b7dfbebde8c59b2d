import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { environmentKeys } from './keys';
import { ENVIRONMENT_BASE } from './paths';

/** POST delete `{id}` → 202 `{message}`. */
export function deleteEnvironment(id: number): Promise<{ message: string }> {
  return api.post(`${ENVIRONMENT_BASE}/delete`, { id });
}

export function useDeleteEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEnvironment,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
