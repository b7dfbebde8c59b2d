import type { SchedulingListBody } from './list-schedulings';

/** Query keys of the schedulings area, so no component writes one inline. */
export const schedulingKeys = {
  all: ['schedulings'] as const,
  lists: () => [...schedulingKeys.all, 'list'] as const,
  list: (body: SchedulingListBody) => [...schedulingKeys.lists(), body] as const,
};
