import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { clientKeys } from './keys';
import { CLIENT_BASE } from './paths';

/** PUT update `{id, name, retention_days?, audit_retention_days?}` → 204; 409 on a taken name. */
export function updateClient(body: ClientUpdate): Promise<void> {
  return api.put<void>(`${CLIENT_BASE}/update`, body);
}

export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClient,
    onSuccess: () => {
      // The header's client selector shows the names.
      for (const queryKey of [clientKeys.lists(), authKeys.me()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
