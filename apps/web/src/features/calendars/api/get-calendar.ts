import { queryOptions } from '@tanstack/react-query';
import type { Calendar } from '@rota/contract';
import { api } from '../../../lib/http';
import { calendarKeys } from './keys';
import { CALENDAR_BASE } from './paths';

/** POST show `{id}` → `{data}`. Quiet: a calendar's name in a select is not worth a popup. */
export async function fetchCalendar(id: number): Promise<Calendar> {
  const answer = await api.post<{ data: Calendar }>(
    `${CALENDAR_BASE}/show`,
    { id },
    { quiet: true },
  );
  return answer.data;
}

export function calendarQueryOptions(id: number) {
  return queryOptions({
    queryKey: calendarKeys.detail(id),
    queryFn: () => fetchCalendar(id),
    staleTime: 30_000,
  });
}
