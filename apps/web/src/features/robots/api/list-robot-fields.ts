import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, RobotField } from '@rota/contract';
import { MAX_PAGE_SIZE } from '@rota/contract';
import { api } from '../../../lib/http';
import { robotFieldKeys, type RobotFieldListBody } from './keys';
import { ROBOT_FIELD_BASE } from './paths';

export type { RobotFieldListBody };

/** POST index, optionally filtered by `rota_robots_id` → `{data, meta}`. */
export function fetchRobotFields(body: RobotFieldListBody): Promise<ListResponse<RobotField>> {
  return api.post<ListResponse<RobotField>>(`${ROBOT_FIELD_BASE}/index`, body);
}

export function robotFieldsQueryOptions(body: RobotFieldListBody) {
  return queryOptions({
    queryKey: robotFieldKeys.list(body),
    queryFn: () => fetchRobotFields(body),
    placeholderData: keepPreviousData,
  });
}

/** Every field of one robot, in name order (the task form's inputs); at most 100. */
export function robotFieldsOfRobotQueryOptions(robotId: number) {
  return queryOptions({
    queryKey: robotFieldKeys.ofRobot(robotId),
    queryFn: async () =>
      (
        await fetchRobotFields({
          rota_robots_id: robotId,
          page: 1,
          per_page: MAX_PAGE_SIZE,
          sort: 'name',
          order: 'asc',
        })
      ).data,
    staleTime: 30_000,
  });
}
