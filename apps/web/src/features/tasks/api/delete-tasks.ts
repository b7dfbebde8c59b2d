import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';
import type { TaskBulkAnswer } from './retry-tasks';

/** POST delete_many `{ids}` → `{message, data: {count}}`. */
export function deleteTasks(ids: number[]): Promise<TaskBulkAnswer> {
  return api.post(`${TASK_BASE}/delete_many`, { ids }, { announce: true });
}

export function useDeleteTasks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTasks,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
