import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Calendar, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { calendarKeys, type CalendarListBody } from './keys';
import { CALENDAR_BASE } from './paths';

export type { CalendarListBody };
export type CalendarSort = NonNullable<CalendarListBody['sort']>;

/** The columns `index` sorts by (calendarListQuerySchema). */
export const CALENDAR_SORTS = ['name', 'created_at'] as const satisfies readonly CalendarSort[];

/** POST index → `{data, meta}`; search runs over the name. Each row holds its excluded dates. */
export function fetchCalendars(body: CalendarListBody): Promise<ListResponse<Calendar>> {
  return api.post<ListResponse<Calendar>>(`${CALENDAR_BASE}/index`, body);
}

export function calendarsQueryOptions(body: CalendarListBody) {
  return queryOptions({
    queryKey: calendarKeys.list(body),
    queryFn: () => fetchCalendars(body),
    placeholderData: keepPreviousData,
  });
}
