import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { robotFieldKeys, robotKeys, robotVersionKeys } from './keys';
import { ROBOT_BASE } from './paths';
import { taskKeys } from '../../tasks';

/** POST delete `{id}` → 202; 409 `robot_in_use` (field `id`) while schedulings point at it. */
export function deleteRobot(id: number): Promise<{ message: string }> {
  return api.post(`${ROBOT_BASE}/delete`, { id });
}

export function useDeleteRobot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRobot,
    onSuccess: (_answer, id) => {
      // Its versions, fields and tasks went with it. (Its detail query is left alone: the detail
      // page leaves after a delete, and refetching it would only answer 404.)
      for (const queryKey of [
        robotKeys.lists(),
        robotVersionKeys.ofRobot(id),
        robotFieldKeys.all,
        taskKeys.all,
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
