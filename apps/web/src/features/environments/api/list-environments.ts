import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Environment, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { environmentKeys, type EnvironmentListBody } from './keys';
import { ENVIRONMENT_BASE } from './paths';

export type { EnvironmentListBody };
export type EnvironmentSort = NonNullable<EnvironmentListBody['sort']>;

/** The columns `index` sorts by (environmentListQuerySchema). */
export const ENVIRONMENT_SORTS = [
  'title',
  'created_at',
] as const satisfies readonly EnvironmentSort[];

/**
 * POST index → `{data, meta}`; search runs over title, host, database and API address. Secrets
 * come only as `has_db_pass` and `has_rota_token`.
 */
export function fetchEnvironments(body: EnvironmentListBody): Promise<ListResponse<Environment>> {
  return api.post<ListResponse<Environment>>(`${ENVIRONMENT_BASE}/index`, body);
}

export function environmentsQueryOptions(body: EnvironmentListBody) {
  return queryOptions({
    queryKey: environmentKeys.list(body),
    queryFn: () => fetchEnvironments(body),
    placeholderData: keepPreviousData,
  });
}
