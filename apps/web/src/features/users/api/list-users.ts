import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, User, userListQuerySchema } from '@rota/contract';
import type { z } from 'zod';
import { api } from '../../../lib/http';
import { userKeys } from './keys';
import { USER_BASE } from './paths';

export type UserListBody = z.input<typeof userListQuerySchema>;
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
