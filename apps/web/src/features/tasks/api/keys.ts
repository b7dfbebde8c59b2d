import type { taskListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type TaskListBody = z.input<typeof taskListQuerySchema>;

/** Query keys of the tasks area, so no component writes one inline. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (body: TaskListBody) => [...taskKeys.lists(), body] as const,
  details: () => [...taskKeys.all, 'detail'] as const,
  detail: (id: number) => [...taskKeys.details(), id] as const,
  history: (id: number) => [...taskKeys.detail(id), 'history'] as const,
};
