import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { robotFieldKeys } from './keys';
import { ROBOT_FIELD_BASE } from './paths';

/** POST delete `{id}` → 202. */
export function deleteRobotField(id: number): Promise<{ message: string }> {
  return api.post(`${ROBOT_FIELD_BASE}/delete`, { id });
}

export function useDeleteRobotField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRobotField,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: robotFieldKeys.all }),
  });
}
