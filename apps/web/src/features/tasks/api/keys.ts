import type { TaskListBody } from './list-tasks';

/** Query keys of the tasks area, so no component writes one inline. */
export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => [...taskKeys.all, 'list'] as const,
  list: (body: TaskListBody) => [...taskKeys.lists(), body] as const,
};
