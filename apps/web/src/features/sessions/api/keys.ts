import type { SessionListQuery } from '@rota/contract';

/** Query keys of the sessions area, so no component writes one inline. */
export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  list: (body: SessionListQuery) => [...sessionKeys.lists(), body] as const,
};
