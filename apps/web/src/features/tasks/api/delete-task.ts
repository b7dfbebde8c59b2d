import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';

/** POST delete `{id}` → 202. */
export function deleteTask(id: number): Promise<{ message: string }> {
  return api.post(`${TASK_BASE}/delete`, { id });
}

export function useDeleteTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
