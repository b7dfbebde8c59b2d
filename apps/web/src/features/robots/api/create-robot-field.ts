import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotField, RobotFieldCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotFieldKeys } from './keys';
import { ROBOT_FIELD_BASE } from './paths';

/** POST create → 201 `{message, data}`; 409 `duplicate_field_name` on `name`. */
export function createRobotField(
  body: RobotFieldCreate,
): Promise<{ message: string; data: RobotField }> {
  return api.post(`${ROBOT_FIELD_BASE}/create`, body);
}

export function useCreateRobotField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRobotField,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: robotFieldKeys.all }),
  });
}
