import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Scheduling } from '@rota/contract';
import { api } from '../../../lib/http';
import { schedulingKeys, type SchedulingListBody } from './keys';
import { SCHEDULING_BASE } from './paths';

export type { SchedulingListBody };
export type SchedulingSort = NonNullable<SchedulingListBody['sort']>;

/** The columns `index` sorts by (schedulingListQuerySchema). */
export const SCHEDULING_SORTS = [
  'name',
  'interval_minutes',
  'priority',
  'next_run_at',
  'created_at',
  'deleted_at',
] as const satisfies readonly SchedulingSort[];

/**
 * POST index with `deleted` (`not_deleted` by default, `deleted`, `all`), `rota_robots_id` and
 * `active` filters → `{data, meta}`; search runs over the name and the robot's name.
 */
export function fetchSchedulings(body: SchedulingListBody): Promise<ListResponse<Scheduling>> {
  return api.post<ListResponse<Scheduling>>(`${SCHEDULING_BASE}/index`, body);
}

export function schedulingsQueryOptions(body: SchedulingListBody) {
  return queryOptions({
    queryKey: schedulingKeys.list(body),
    queryFn: () => fetchSchedulings(body),
    placeholderData: keepPreviousData,
  });
}
