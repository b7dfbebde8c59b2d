import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Task, TaskCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { taskKeys } from './keys';
import { TASK_BASE } from './paths';

/** POST create → 201 `{message, data}`; bad data values come back as `data.<field>` errors. */
export function createTask(body: TaskCreate): Promise<{ message: string; data: Task }> {
  return api.post(`${TASK_BASE}/create`, body);
}

export function useCreateTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: taskKeys.all }),
  });
}
