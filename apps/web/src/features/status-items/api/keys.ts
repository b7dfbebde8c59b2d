import type { statusItemListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type StatusItemListBody = z.input<typeof statusItemListQuerySchema>;

/** Query keys of the status items area, so no component writes one inline. */
export const statusItemKeys = {
  all: ['status-items'] as const,
  lists: () => [...statusItemKeys.all, 'list'] as const,
  list: (body: StatusItemListBody) => [...statusItemKeys.lists(), body] as const,
  palette: () => [...statusItemKeys.all, 'palette'] as const,
};
