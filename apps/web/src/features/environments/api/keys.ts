import type { environmentListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type EnvironmentListBody = z.input<typeof environmentListQuerySchema>;

/** Query keys of the environments area, so no component writes one inline. */
export const environmentKeys = {
  all: ['environments'] as const,
  lists: () => [...environmentKeys.all, 'list'] as const,
  list: (body: EnvironmentListBody) => [...environmentKeys.lists(), body] as const,
};
