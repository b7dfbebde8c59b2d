import type { ClientListBody } from './list-clients';

/** Query keys of the clients area, so no component writes one inline. */
export const clientKeys = {
  all: ['clients'] as const,
  lists: () => [...clientKeys.all, 'list'] as const,
  list: (body: ClientListBody) => [...clientKeys.lists(), body] as const,
  /** Whether the signed-in user may manage clients (a platform administrator). */
  access: () => [...clientKeys.all, 'access'] as const,
};
