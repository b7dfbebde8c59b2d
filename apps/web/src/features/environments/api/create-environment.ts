import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Environment, EnvironmentCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { environmentKeys } from './keys';
import { ENVIRONMENT_BASE } from './paths';

/** POST create → 201 `{message, data}`; 409 `duplicate_environment_title` on `title`. */
export function createEnvironment(
  body: EnvironmentCreate,
): Promise<{ message: string; data: Environment }> {
  return api.post(`${ENVIRONMENT_BASE}/create`, body);
}

export function useCreateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEnvironment,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
