import type { activityListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type ActivityListBody = z.input<typeof activityListQuerySchema>;

/** Query keys of the activity area, so no component writes one inline. */
export const activityKeys = {
  all: ['activity'] as const,
  /** Every executions list: the activity page and each robot's latest executions. */
  lists: () => [...activityKeys.all, 'list'] as const,
  list: (body: ActivityListBody) => [...activityKeys.lists(), body] as const,
  details: () => [...activityKeys.all, 'detail'] as const,
  detail: (id: number) => [...activityKeys.details(), id] as const,
  /** An execution's log tail (grows by refetching after its last line). */
  logs: (id: number) => [...activityKeys.all, 'logs', id] as const,
  /** Lines of an execution's log holding a text (the logs tab's search). */
  logSearch: (id: number, search: string) => [...activityKeys.all, 'logs', id, search] as const,
  /** An execution's artifacts (the Evidence tab). */
  artifacts: (id: number) => [...activityKeys.all, 'artifacts', id] as const,
  /** One image artifact's bytes, shown as a thumbnail. */
  artifactImage: (id: number) => [...activityKeys.all, 'artifact-image', id] as const,
};
