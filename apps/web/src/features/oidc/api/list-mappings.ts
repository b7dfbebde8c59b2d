import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, OidcMapping } from '@rota/contract';
import { api } from '../../../lib/http';
import { oidcKeys, type OidcMappingListBody } from './keys';
import { OIDC_MAPPING_BASE } from './paths';

export type { OidcMappingListBody };
export type OidcMappingSort = NonNullable<OidcMappingListBody['sort']>;

/** The columns `index` sorts by (oidcMappingListQuerySchema). */
export const OIDC_MAPPING_SORTS = [
  'claim_value',
  'created_at',
] as const satisfies readonly OidcMappingSort[];

/**
 * POST index → `{data, meta}`. Quiet: a 403 (not a platform administrator) is shown by the
 * page as a denial, not as a popup.
 */
export function fetchOidcMappings(body: OidcMappingListBody): Promise<ListResponse<OidcMapping>> {
  return api.post<ListResponse<OidcMapping>>(`${OIDC_MAPPING_BASE}/index`, body, { quiet: true });
}

export function oidcMappingsQueryOptions(body: OidcMappingListBody) {
  return queryOptions({
    queryKey: oidcKeys.mappingList(body),
    queryFn: () => fetchOidcMappings(body),
    placeholderData: keepPreviousData,
  });
}
