import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Parameter, ParameterCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { parameterKeys } from './keys';
import { PARAMETER_BASE } from './paths';

/**
 * POST create with `value` OR `password` (never both, never neither) → 201 `{message, data}`;
 * 409 `duplicate_parameter_name` on `name`.
 */
export function createParameter(
  body: ParameterCreate,
): Promise<{ message: string; data: Parameter }> {
  return api.post(`${PARAMETER_BASE}/create`, body);
}

export function useCreateParameter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createParameter,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: parameterKeys.all }),
  });
}
