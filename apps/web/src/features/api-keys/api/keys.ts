import type { apiKeyListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type ApiKeyListBody = z.input<typeof apiKeyListQuerySchema>;

/** Query keys of the API keys area, so no component writes one inline. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  lists: () => [...apiKeyKeys.all, 'list'] as const,
  list: (body: ApiKeyListBody) => [...apiKeyKeys.lists(), body] as const,
};
