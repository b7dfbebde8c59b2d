import type { calendarListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type CalendarListBody = z.input<typeof calendarListQuerySchema>;

/** Query keys of the calendars area, so no component writes one inline. */
export const calendarKeys = {
  all: ['calendars'] as const,
  lists: () => [...calendarKeys.all, 'list'] as const,
  list: (body: CalendarListBody) => [...calendarKeys.lists(), body] as const,
  detail: (id: number) => [...calendarKeys.all, 'detail', id] as const,
};
