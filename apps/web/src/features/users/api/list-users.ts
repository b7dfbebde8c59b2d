import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, User } from '@rota/contract';
import { api } from '../../../lib/http';
import { userKeys, type UserListBody } from './keys';
import { USER_BASE } from './paths';

export type { UserListBody };
export type UserSort = NonNullable<UserListBody['sort']>;

/** The columns `index` sorts by (userListQuerySchema). */
export const USER_SORTS = [
  'name',
  'email',
  'access',
  'created_at',
] as const satisfies readonly UserSort[];

/** POST index → `{data, meta}`; search runs over name, last name, email and access. */
export function fetchUsers(body: UserListBody): Promise<ListResponse<User>> {
  return api.post<ListResponse<User>>(`${USER_BASE}/index`, body);
}

export function usersQueryOptions(body: UserListBody) {
  return queryOptions({
    queryKey: userKeys.list(body),
    queryFn: () => fetchUsers(body),
    placeholderData: keepPreviousData,
  });
}
