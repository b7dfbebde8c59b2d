import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Parameter } from '@rota/contract';
import { api } from '../../../lib/http';
import { parameterKeys, type ParameterListBody } from './keys';
import { PARAMETER_BASE } from './paths';

export type { ParameterListBody };
export type ParameterSort = NonNullable<ParameterListBody['sort']>;

/** The columns `index` sorts by (parameterListQuerySchema). */
export const PARAMETER_SORTS = [
  'name',
  'created_at',
  'updated_at',
] as const satisfies readonly ParameterSort[];

/**
 * POST index → `{data, meta}`; search runs over name and description. A password parameter
 * comes with `value: null` and `has_password: true`: passwords never leave the server.
 */
export function fetchParameters(body: ParameterListBody): Promise<ListResponse<Parameter>> {
  return api.post<ListResponse<Parameter>>(`${PARAMETER_BASE}/index`, body);
}

export function parametersQueryOptions(body: ParameterListBody) {
  return queryOptions({
    queryKey: parameterKeys.list(body),
    queryFn: () => fetchParameters(body),
    placeholderData: keepPreviousData,
  });
}
