import { queryOptions } from '@tanstack/react-query';
import type { TaskHistoryEntry, TaskHistoryResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';

/** POST history → `{data}`: the task's status and holder changes, oldest first. */
export async function fetchTaskHistory(id: number): Promise<TaskHistoryEntry[]> {
  const answer = await api.post<TaskHistoryResponse>(
    `${TASK_BASE}/history`,
    { id },
    { quiet: true },
  );
  return answer.data;
}

export function taskHistoryQueryOptions(id: number) {
  return queryOptions({
    queryKey: taskKeys.history(id),
    queryFn: () => fetchTaskHistory(id),
  });
}
