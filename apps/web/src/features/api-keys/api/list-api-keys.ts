import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiKey, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { apiKeyKeys, type ApiKeyListBody } from './keys';
import { API_KEY_BASE } from './paths';

export type { ApiKeyListBody };
export type ApiKeySort = NonNullable<ApiKeyListBody['sort']>;

/** The columns `index` sorts by (apiKeyListQuerySchema). */
export const API_KEY_SORTS = [
  'name',
  'created_at',
  'last_used_at',
] as const satisfies readonly ApiKeySort[];

/** POST index → `{data, meta}`: the user's own keys, or with `all` every key of the client. */
export function fetchApiKeys(body: ApiKeyListBody): Promise<ListResponse<ApiKey>> {
  return api.post<ListResponse<ApiKey>>(`${API_KEY_BASE}/index`, body);
}

export function apiKeysQueryOptions(body: ApiKeyListBody) {
  return queryOptions({
    queryKey: apiKeyKeys.list(body),
    queryFn: () => fetchApiKeys(body),
    placeholderData: keepPreviousData,
  });
}
