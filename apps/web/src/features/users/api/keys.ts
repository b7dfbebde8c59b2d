import type { accessRequestListQuerySchema, userListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type AccessRequestListBody = z.input<typeof accessRequestListQuerySchema>;
export type UserListBody = z.input<typeof userListQuerySchema>;

/** Query keys of the users area, so no component writes one inline. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (body: UserListBody) => [...userKeys.lists(), body] as const,
};

export const accessRequestKeys = {
  all: ['access-requests'] as const,
  lists: () => [...accessRequestKeys.all, 'list'] as const,
  list: (body: AccessRequestListBody) => [...accessRequestKeys.lists(), body] as const,
};
