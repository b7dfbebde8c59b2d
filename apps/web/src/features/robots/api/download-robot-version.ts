import { useMutation } from '@tanstack/react-query';
import type { RobotVersion } from '@rota/contract';
import { saveBlob } from '../../../lib/download';
import { api } from '../../../lib/http';
import { ROBOT_VERSION_BASE } from './paths';

/**
 * POST download `{id}` streams the package; it is fetched with the session's Bearer token (a plain
 * link could not send it) and handed to the browser as a file.
 */
export async function downloadRobotVersion(version: RobotVersion): Promise<void> {
  const file = await api.download(`${ROBOT_VERSION_BASE}/download`, {
    id: version.rota_robot_versions_id,
  });
  saveBlob(file.blob, file.fileName ?? version.file_name);
}

export function useDownloadRobotVersion() {
  return useMutation({ mutationFn: downloadRobotVersion });
}
