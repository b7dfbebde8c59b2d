import type { parameterListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type ParameterListBody = z.input<typeof parameterListQuerySchema>;

/** Query keys of the parameters area, so no component writes one inline. */
export const parameterKeys = {
  all: ['parameters'] as const,
  lists: () => [...parameterKeys.all, 'list'] as const,
  list: (body: ParameterListBody) => [...parameterKeys.lists(), body] as const,
};
