import type { SchedulingPreview, schedulingListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type SchedulingListBody = z.input<typeof schedulingListQuerySchema>;

/** Query keys of the schedulings area, so no component writes one inline. */
export const schedulingKeys = {
  all: ['schedulings'] as const,
  lists: () => [...schedulingKeys.all, 'list'] as const,
  list: (body: SchedulingListBody) => [...schedulingKeys.lists(), body] as const,
  preview: (body: SchedulingPreview) => [...schedulingKeys.all, 'preview', body] as const,
};
