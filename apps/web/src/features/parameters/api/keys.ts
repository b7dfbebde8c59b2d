import type { ParameterListBody } from './list-parameters';

/** Query keys of the parameters area, so no component writes one inline. */
export const parameterKeys = {
  all: ['parameters'] as const,
  lists: () => [...parameterKeys.all, 'list'] as const,
  list: (body: ParameterListBody) => [...parameterKeys.lists(), body] as const,
};
