import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RobotVersion } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotVersionKeys, type RobotVersionListBody } from './keys';
import { ROBOT_VERSION_BASE } from './paths';

export type { RobotVersionListBody };

/** POST index `{rota_robots_id, page, per_page, sort, order}` → `{data, meta}`. */
export function fetchRobotVersions(
  body: RobotVersionListBody,
): Promise<ListResponse<RobotVersion>> {
  return api.post<ListResponse<RobotVersion>>(`${ROBOT_VERSION_BASE}/index`, body);
}

export function robotVersionsQueryOptions(body: RobotVersionListBody) {
  return queryOptions({
    queryKey: robotVersionKeys.list(body),
    queryFn: () => fetchRobotVersions(body),
    placeholderData: keepPreviousData,
  });
}
