import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys } from './keys';
import { ROBOT_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204. */
export function updateRobot(body: RobotUpdate): Promise<void> {
  return api.put<void>(`${ROBOT_BASE}/update`, body);
}

export function useUpdateRobot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRobot,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: robotKeys.all }),
  });
}
