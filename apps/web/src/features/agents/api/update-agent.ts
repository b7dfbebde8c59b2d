import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgentUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys } from '../../vms';
import { agentKeys } from './keys';
import { AGENT_BASE } from './paths';

/** PUT update `{id, name?, rota_vms_id?}` → 204: rename, or move to another VM. */
export function updateAgent(body: AgentUpdate): Promise<void> {
  return api.put<void>(`${AGENT_BASE}/update`, body);
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    onSuccess: () => {
      // A move changes two VMs' agent counts and connectivity.
      for (const queryKey of [agentKeys.all, vmKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
