import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Robot } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotKeys, type RobotListBody } from './keys';
import { ROBOT_BASE } from './paths';

export type { RobotListBody };

/** POST index → `{data, meta}`; search runs over name, description and executor. */
export function fetchRobots(body: RobotListBody): Promise<ListResponse<Robot>> {
  return api.post<ListResponse<Robot>>(`${ROBOT_BASE}/index`, body);
}

export function robotsQueryOptions(body: RobotListBody) {
  return queryOptions({
    queryKey: robotKeys.list(body),
    queryFn: () => fetchRobots(body),
    // The previous page stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
  });
}
