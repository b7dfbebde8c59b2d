import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StatusItemUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { dashboardKeys } from '../../dashboard';
import { statusItemKeys } from './keys';
import { STATUS_ITEM_BASE } from './paths';

/** PUT update `{id, category?, label?, color?}` → 204; a blank label reads the status's name. */
export function updateStatusItem(body: StatusItemUpdate): Promise<void> {
  return api.put<void>(`${STATUS_ITEM_BASE}/update`, body);
}

export function useUpdateStatusItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStatusItem,
    onSuccess: () => {
      // The palette (badges, charts) and the dashboard's categories follow the items.
      for (const queryKey of [statusItemKeys.all, dashboardKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
