import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ParameterUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { parameterKeys } from './keys';
import { PARAMETER_BASE } from './paths';

/**
 * PUT update `{id, ...changes}` → 204. `value` replaces a password, `password` replaces a value,
 * neither keeps what is there.
 */
export function updateParameter(body: ParameterUpdate): Promise<void> {
  return api.put<void>(`${PARAMETER_BASE}/update`, body);
}

export function useUpdateParameter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateParameter,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: parameterKeys.all }),
  });
}
