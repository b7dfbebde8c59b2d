import { queryOptions } from '@tanstack/react-query';
import type { RobotVersion } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotVersionKeys } from './keys';
import { ROBOT_VERSION_BASE } from './paths';

/** POST show `{id}` → `{data}`; quiet, the Current tab says it inline when it fails. */
export async function fetchRobotVersion(id: number): Promise<RobotVersion> {
  const answer = await api.post<{ data: RobotVersion }>(
    `${ROBOT_VERSION_BASE}/show`,
    { id },
    { quiet: true },
  );
  return answer.data;
}

/** Keyed under its robot, so an upload, a rollback or a delete of that robot refreshes it. */
export function robotVersionQueryOptions(robotId: number, id: number) {
  return queryOptions({
    queryKey: robotVersionKeys.detail(robotId, id),
    queryFn: () => fetchRobotVersion(id),
  });
}
