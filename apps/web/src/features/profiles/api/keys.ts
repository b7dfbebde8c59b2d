import type { profileListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type ProfileListBody = z.input<typeof profileListQuerySchema>;

/** Query keys of the profiles area, so no component writes one inline. */
export const profileKeys = {
  all: ['profiles'] as const,
  lists: () => [...profileKeys.all, 'list'] as const,
  list: (body: ProfileListBody) => [...profileKeys.lists(), body] as const,
  /** Every profile of the selected client, for selects. */
  options: () => [...profileKeys.all, 'options'] as const,
};
