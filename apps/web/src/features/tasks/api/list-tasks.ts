import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Task } from '@rota/contract';
import { api } from '../../../lib/http';
import { taskKeys, type TaskListBody } from './keys';
import { TASK_BASE } from './paths';

export type { TaskListBody };

/** POST index with `rota_robots_id`, `status`, `startDate`/`endDate` filters → `{data, meta}`. */
export function fetchTasks(body: TaskListBody): Promise<ListResponse<Task>> {
  return api.post<ListResponse<Task>>(`${TASK_BASE}/index`, body);
}

export function tasksQueryOptions(body: TaskListBody) {
  return queryOptions({
    queryKey: taskKeys.list(body),
    queryFn: () => fetchTasks(body),
    placeholderData: keepPreviousData,
  });
}
