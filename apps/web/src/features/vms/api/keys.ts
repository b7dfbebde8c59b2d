import type { vmListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type VmListBody = z.input<typeof vmListQuerySchema>;

/** Query keys of the VMs area, so no component writes one inline. */
export const vmKeys = {
  all: ['vms'] as const,
  lists: () => [...vmKeys.all, 'list'] as const,
  list: (body: VmListBody) => [...vmKeys.lists(), body] as const,
  details: () => [...vmKeys.all, 'detail'] as const,
  detail: (id: number) => [...vmKeys.details(), id] as const,
  count: () => [...vmKeys.all, 'count'] as const,
};
