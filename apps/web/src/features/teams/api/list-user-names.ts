import { queryOptions } from '@tanstack/react-query';
import type { UserName } from '@rota/contract';
import { api } from '../../../lib/http';
import { teamKeys } from './keys';
import { USER_NAME_PATH } from './paths';

/** POST user `name` `{search?}` → `{data: [{users_id, name, last_name}]}`: the client's users. */
export function fetchUserNames(search: string): Promise<{ data: UserName[] }> {
  return api.post<{ data: UserName[] }>(USER_NAME_PATH, search ? { search } : {});
}

export function userNamesQueryOptions(search: string) {
  return queryOptions({
    queryKey: teamKeys.userNames(search),
    queryFn: () => fetchUserNames(search),
    staleTime: 30_000,
  });
}
