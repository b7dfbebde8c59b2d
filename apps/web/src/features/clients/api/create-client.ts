import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { clientKeys } from './keys';
import { CLIENT_BASE } from './paths';

export type ClientCreated = { message: string; data: { rota_clients_id: number } };

/** POST create `{name, retention_days?, audit_retention_days?}` → 201 `{message, data: {rota_clients_id}}`; 409 on a taken name. */
export function createClient(body: ClientCreate): Promise<ClientCreated> {
  return api.post<ClientCreated>(`${CLIENT_BASE}/create`, body);
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClient,
    onSuccess: () => {
      // The creator is a member of the new client: the header's client selector lists it.
      for (const queryKey of [clientKeys.lists(), authKeys.me()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
