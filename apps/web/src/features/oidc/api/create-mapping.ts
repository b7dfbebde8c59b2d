import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OidcMapping, OidcMappingCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys } from './keys';
import { OIDC_MAPPING_BASE } from './paths';

/** POST create `{claim_value, rota_clients_id, profiles_id}` → 201 `{message, data}`. */
export function createOidcMapping(
  body: OidcMappingCreate,
): Promise<{ message: string; data: OidcMapping }> {
  return api.post(`${OIDC_MAPPING_BASE}/create`, body);
}

export function useCreateOidcMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOidcMapping,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: oidcKeys.mappings() }),
  });
}
