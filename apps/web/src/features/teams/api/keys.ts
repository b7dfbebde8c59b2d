import type { teamListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type TeamListBody = z.input<typeof teamListQuerySchema>;

/** Query keys of the teams area, so no component writes one inline. */
export const teamKeys = {
  all: ['teams'] as const,
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (body: TeamListBody) => [...teamKeys.lists(), body] as const,
  /** A team's robots and users, with their names (the edit form starts from them). */
  members: (id: number) => [...teamKeys.all, 'members', id] as const,
  /** The user picker's options for a search text. */
  userNames: (search: string) => [...teamKeys.all, 'user-names', search] as const,
};
