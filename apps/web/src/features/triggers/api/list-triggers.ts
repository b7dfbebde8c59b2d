import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Trigger } from '@rota/contract';
import { api } from '../../../lib/http';
import { triggerKeys, type TriggerListBody } from './keys';
import { TRIGGER_BASE } from './paths';

export type { TriggerListBody };
export type TriggerSort = NonNullable<TriggerListBody['sort']>;

/** The columns `index` sorts by (triggerListQuerySchema). */
export const TRIGGER_SORTS = ['name', 'created_at'] as const satisfies readonly TriggerSort[];

/** POST index `{rota_robots_id, ...}` → `{data, meta}`; the token itself is never answered. */
export function fetchTriggers(body: TriggerListBody): Promise<ListResponse<Trigger>> {
  return api.post<ListResponse<Trigger>>(`${TRIGGER_BASE}/index`, body);
}

export function triggersQueryOptions(body: TriggerListBody) {
  return queryOptions({
    queryKey: triggerKeys.list(body),
    queryFn: () => fetchTriggers(body),
    placeholderData: keepPreviousData,
  });
}
