import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';

export type TaskBulkAnswer = { message: string; data: { count: number } };

/**
 * POST retry `{ids}` → `{message, data: {count}}`: the tasks go back to the queue. `announce`, so
 * the message shows whether the server answers 200 or 202.
 */
export function retryTasks(ids: number[]): Promise<TaskBulkAnswer> {
  return api.post(`${TASK_BASE}/retry`, { ids }, { announce: true });
}

export function useRetryTasks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryTasks,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
