import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotVersion } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys, robotVersionKeys } from './keys';
import { ROBOT_VERSION_BASE } from './paths';

/**
 * PUT update `{id, current: true}` → 204: this version becomes the one agents run (a rollback is
 * making an older one current).
 */
export function makeRobotVersionCurrent(version: RobotVersion): Promise<void> {
  return api.put<void>(`${ROBOT_VERSION_BASE}/update`, {
    id: version.rota_robot_versions_id,
    current: true,
  });
}

export function useMakeRobotVersionCurrent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeRobotVersionCurrent,
    onSuccess: () => {
      // A version is its package's: every robot on that package lists it.
      void queryClient.invalidateQueries({ queryKey: robotVersionKeys.all });
      void queryClient.invalidateQueries({ queryKey: robotKeys.all });
    },
  });
}
