import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Robot, RobotCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys } from './keys';
import { ROBOT_BASE } from './paths';

/** POST create → 201 `{message, data}` (the client shows the message). */
export function createRobot(body: RobotCreate): Promise<{ message: string; data: Robot }> {
  return api.post(`${ROBOT_BASE}/create`, body);
}

export function useCreateRobot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRobot,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: robotKeys.all }),
  });
}
