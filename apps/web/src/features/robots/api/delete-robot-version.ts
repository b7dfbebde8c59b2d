import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotVersion } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotVersionKeys } from './keys';
import { ROBOT_VERSION_BASE } from './paths';

/** POST delete `{id}` → 202; 409 `version_in_use` for the current version. */
export function deleteRobotVersion(version: RobotVersion): Promise<{ message: string }> {
  return api.post(`${ROBOT_VERSION_BASE}/delete`, { id: version.rota_robot_versions_id });
}

export function useDeleteRobotVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRobotVersion,
    onSuccess: () =>
      // A version is its package's: every robot on that package lists it.
      void queryClient.invalidateQueries({ queryKey: robotVersionKeys.all }),
  });
}
