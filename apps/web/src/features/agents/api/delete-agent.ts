import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { vmKeys } from '../../vms';
import { agentKeys } from './keys';
import { AGENT_BASE } from './paths';

/** POST delete `{id}` → 202; the agent's token stops working. */
export function deleteAgent(id: number): Promise<{ message: string }> {
  return api.post(`${AGENT_BASE}/delete`, { id });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: () => {
      for (const queryKey of [agentKeys.all, vmKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
