import type { logStreamListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type LogStreamListBody = z.input<typeof logStreamListQuerySchema>;

/** Query keys of the log streams area, so no component writes one inline. */
export const logStreamKeys = {
  all: ['log-streams'] as const,
  lists: () => [...logStreamKeys.all, 'list'] as const,
  list: (body: LogStreamListBody) => [...logStreamKeys.lists(), body] as const,
};
