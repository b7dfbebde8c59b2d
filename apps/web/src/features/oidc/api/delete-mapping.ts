import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';
import { OIDC_MAPPING_BASE } from './paths';

/** POST delete `{id}` → `{message}`; memberships change at the members' next sign-in. */
export function deleteOidcMapping(id: number): Promise<{ message: string }> {
  return api.post(`${OIDC_MAPPING_BASE}/delete`, { id }, { announce: true });
}

export function useDeleteOidcMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOidcMapping,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oidcKeys.mappings() }),
  });
}
