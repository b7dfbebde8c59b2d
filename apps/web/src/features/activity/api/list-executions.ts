import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Execution, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { activityKeys, type ActivityListBody } from './keys';
import { ACTIVITY_BASE } from './paths';

export type { ActivityListBody };
export type ActivitySort = NonNullable<ActivityListBody['sort']>;

/**
 * POST index with `status`, `rota_robots_id`, `rota_schedulings_id`, `rota_nodes_id` and the
 * `startDate`/`endDate` range (days the runs were queued) → `{data, meta}`; newest first by default.
 */
export function fetchExecutions(body: ActivityListBody): Promise<ListResponse<Execution>> {
  return api.post<ListResponse<Execution>>(`${ACTIVITY_BASE}/index`, body);
}

export function executionsQueryOptions(body: ActivityListBody) {
  return queryOptions({
    queryKey: activityKeys.list(body),
    queryFn: () => fetchExecutions(body),
    placeholderData: keepPreviousData,
  });
}
