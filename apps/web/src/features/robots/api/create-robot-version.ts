import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RobotVersion } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys, robotVersionKeys } from './keys';
import { ROBOT_VERSION_BASE } from './paths';

export type RobotVersionUpload = {
  rota_robots_id: number;
  version: string;
  notes: string | null;
  file: File;
};

/**
 * The multipart body of `create`: the text parts first and the `file` part last, so a server
 * that streams the parts has read every field by the time the package arrives.
 */
export function robotVersionFormData({
  rota_robots_id,
  version,
  notes,
  file,
}: RobotVersionUpload): FormData {
  const form = new FormData();
  form.append('rota_robots_id', String(rota_robots_id));
  form.append('version', version);
  if (notes) form.append('notes', notes);
  form.append('file', file, file.name);
  return form;
}

/** POST create, `multipart/form-data` → 201 `{message, data}`. */
export function createRobotVersion(
  upload: RobotVersionUpload,
): Promise<{ message: string; data: RobotVersion }> {
  return api.upload(`${ROBOT_VERSION_BASE}/create`, robotVersionFormData(upload));
}

export function useCreateRobotVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRobotVersion,
    onSuccess: (_answer, upload) => {
      void queryClient.invalidateQueries({
        queryKey: robotVersionKeys.ofRobot(upload.rota_robots_id),
      });
      // The first version may have become the robot's current one.
      void queryClient.invalidateQueries({ queryKey: robotKeys.all });
    },
  });
}
