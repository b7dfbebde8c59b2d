import { queryOptions } from '@tanstack/react-query';
import type { Task } from '@rota/contract';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';

/** POST show → `{data}`. Quiet: the task page explains a 404 itself instead of a popup. */
export async function fetchTask(id: number): Promise<Task> {
  const answer = await api.post<{ data: Task }>(`${TASK_BASE}/show`, { id }, { quiet: true });
  return answer.data;
}

export function taskQueryOptions(id: number) {
  return queryOptions({
    queryKey: taskKeys.detail(id),
    queryFn: () => fetchTask(id),
  });
}
