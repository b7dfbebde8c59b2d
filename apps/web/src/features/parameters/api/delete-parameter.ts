import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { parameterKeys } from './keys';
import { PARAMETER_BASE } from './paths';

/** POST delete `{id}` → 202. */
export function deleteParameter(id: number): Promise<{ message: string }> {
  return api.post(`${PARAMETER_BASE}/delete`, { id });
}

export function useDeleteParameter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteParameter,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: parameterKeys.all }),
  });
}
