import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotFieldUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotFieldKeys } from './keys';
import { ROBOT_FIELD_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204. */
export function updateRobotField(body: RobotFieldUpdate): Promise<void> {
  return api.put<void>(`${ROBOT_FIELD_BASE}/update`, body);
}

export function useUpdateRobotField() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRobotField,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: robotFieldKeys.all }),
  });
}
