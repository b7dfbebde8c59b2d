import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AccessRequest, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { accessRequestKeys, type AccessRequestListBody } from './keys';
import { ACCESS_REQUEST_BASE } from './paths';

export type { AccessRequestListBody };
export type AccessRequestSort = NonNullable<AccessRequestListBody['sort']>;

/** The columns `index` sorts by (accessRequestListQuerySchema). */
export const ACCESS_REQUEST_SORTS = [
  'created_at',
  'name',
  'email',
  'client_name',
] as const satisfies readonly AccessRequestSort[];

/** POST index → `{data, meta}`, newest first by default; `status` filters. */
export function fetchAccessRequests(
  body: AccessRequestListBody,
): Promise<ListResponse<AccessRequest>> {
  return api.post<ListResponse<AccessRequest>>(`${ACCESS_REQUEST_BASE}/index`, body);
}

export function accessRequestsQueryOptions(body: AccessRequestListBody) {
  return queryOptions({
    queryKey: accessRequestKeys.list(body),
    queryFn: () => fetchAccessRequests(body),
    placeholderData: keepPreviousData,
  });
}
