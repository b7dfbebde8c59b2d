import type { clientListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type ClientListBody = z.input<typeof clientListQuerySchema>;

/** Query keys of the clients area, so no component writes one inline. */
export const clientKeys = {
  all: ['clients'] as const,
  lists: () => [...clientKeys.all, 'list'] as const,
  list: (body: ClientListBody) => [...clientKeys.lists(), body] as const,
  /** Whether the signed-in user may manage clients (a platform administrator). */
  access: () => [...clientKeys.all, 'access'] as const,
};
