import type { agentListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type AgentListBody = z.input<typeof agentListQuerySchema>;

/** Query keys of the agents area, so no component writes one inline. */
export const agentKeys = {
  all: ['agents'] as const,
  lists: () => [...agentKeys.all, 'list'] as const,
  list: (body: AgentListBody) => [...agentKeys.lists(), body] as const,
  download: () => [...agentKeys.all, 'download'] as const,
};
