import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, StatusItem } from '@rota/contract';
import { api } from '../../../lib/http';
import { statusItemKeys, type StatusItemListBody } from './keys';
import { STATUS_ITEM_BASE } from './paths';

export type { StatusItemListBody };
export type StatusItemSort = NonNullable<StatusItemListBody['sort']>;

/** The columns `index` sorts by (statusItemListQuerySchema): both in lifecycle order. */
export const STATUS_ITEM_SORTS = [
  'status',
  'category',
] as const satisfies readonly StatusItemSort[];

/** POST index → `{data, meta}`: one item per execution status; search over status and label. */
export function fetchStatusItems(body: StatusItemListBody): Promise<ListResponse<StatusItem>> {
  return api.post<ListResponse<StatusItem>>(`${STATUS_ITEM_BASE}/index`, body);
}

export function statusItemsQueryOptions(body: StatusItemListBody) {
  return queryOptions({
    queryKey: statusItemKeys.list(body),
    queryFn: () => fetchStatusItems(body),
    placeholderData: keepPreviousData,
  });
}
