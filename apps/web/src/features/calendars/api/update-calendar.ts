import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { schedulingKeys } from '../../schedulings';
import { calendarKeys } from './keys';
import { CALENDAR_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204; `excluded_dates` replaces the whole list. */
export function updateCalendar(body: CalendarUpdate): Promise<void> {
  return api.put<void>(`${CALENDAR_BASE}/update`, body);
}

export function useUpdateCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCalendar,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: calendarKeys.all });
      // The schedulings on it answer another next run.
      void queryClient.invalidateQueries({ queryKey: schedulingKeys.all });
    },
  });
}
