import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OidcMappingUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';
import { OIDC_MAPPING_BASE } from './paths';

/** PUT update `{id, claim_value, rota_clients_id, profiles_id}` → `{message}`. */
export function updateOidcMapping(body: OidcMappingUpdate): Promise<{ message: string }> {
  return api.put(`${OIDC_MAPPING_BASE}/update`, body, { announce: true });
}

export function useUpdateOidcMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOidcMapping,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oidcKeys.mappings() }),
  });
}
