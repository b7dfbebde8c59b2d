import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Task } from '@rota/contract';
import { api } from '../../../lib/http';
import { taskKeys, type TaskListBody } from './keys';
import { TASK_BASE } from './paths';

export type { TaskListBody };

/**
 * SLA states change with time alone (a deadline comes closer): an open list refetches this
 * often, besides live events.
 */
export const TASKS_REFRESH_MS = 15_000;

/**
 * POST index with `rota_robots_id`, `status`, `sla_state`, `startDate`/`endDate` filters →
 * `{data, meta}`.
 */
export function fetchTasks(body: TaskListBody): Promise<ListResponse<Task>> {
  return api.post<ListResponse<Task>>(`${TASK_BASE}/index`, body);
}

export function tasksQueryOptions(body: TaskListBody) {
  return queryOptions({
    queryKey: taskKeys.list(body),
    queryFn: () => fetchTasks(body),
    placeholderData: keepPreviousData,
    refetchInterval: TASKS_REFRESH_MS,
  });
}
