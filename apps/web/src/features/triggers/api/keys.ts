import type { triggerListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type TriggerListBody = z.input<typeof triggerListQuerySchema>;

/** Query keys of the triggers area, so no component writes one inline. */
export const triggerKeys = {
  all: ['triggers'] as const,
  lists: () => [...triggerKeys.all, 'list'] as const,
  list: (body: TriggerListBody) => [...triggerKeys.lists(), body] as const,
};
