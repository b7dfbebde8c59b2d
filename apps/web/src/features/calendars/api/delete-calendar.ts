import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { calendarKeys } from './keys';
import { CALENDAR_BASE } from './paths';

/**
 * POST delete `{id}` → 202 `{message}`; 409 while a scheduling names the calendar (the API
 * client's popup shows the server's message).
 */
export function deleteCalendar(id: number): Promise<{ message: string }> {
  return api.post(`${CALENDAR_BASE}/delete`, { id });
}

export function useDeleteCalendar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCalendar,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: calendarKeys.all }),
  });
}
