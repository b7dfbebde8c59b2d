import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { MyRobots } from '@rota/contract';
import { api } from '../../../lib/http';
import { attendedKeys } from './keys';
import { ATTENDED_BASE } from './paths';

/** GET robots?search= (ROBOS.UPDATE) → the caller's attended agents and the robots they may run. */
export function fetchMyRobots(search: string): Promise<MyRobots> {
  const query = search === '' ? '' : `?${new URLSearchParams({ search }).toString()}`;
  return api
    .get<{ data: MyRobots }>(`${ATTENDED_BASE}/robots${query}`)
    .then((answer) => answer.data);
}

export function myRobotsQueryOptions(search: string) {
  return queryOptions({
    queryKey: attendedKeys.robots(search),
    queryFn: () => fetchMyRobots(search),
    placeholderData: keepPreviousData,
  });
}
