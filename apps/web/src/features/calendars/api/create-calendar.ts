import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Calendar, CalendarCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { calendarKeys } from './keys';
import { CALENDAR_BASE } from './paths';

/** POST create → 201 `{message, data}`; 400 on `time_zone` / `excluded_dates.N`. */
export function createCalendar(body: CalendarCreate): Promise<{ message: string; data: Calendar }> {
  return api.post(`${CALENDAR_BASE}/create`, body);
}

export function useCreateCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCalendar,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });
}
