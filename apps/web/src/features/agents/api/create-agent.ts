import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AgentCreate, AgentWithToken } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys } from '../../vms';
import { agentKeys } from './keys';
import { AGENT_BASE } from './paths';

/**
 * POST create `{name, rota_vms_id}` → 201 `{message, data: {...agent, token}}`: the only answer
 * that ever carries this token. 409 `duplicate_agent_name` on `name`; 400 `vm_not_found`.
 */
export function createAgent(body: AgentCreate): Promise<{ message: string; data: AgentWithToken }> {
  return api.post(`${AGENT_BASE}/create`, body);
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    // The answer holds a token: once the page has read it, nothing should keep it around.
    gcTime: 0,
    onSuccess: () => {
      // The VMs list shows how many agents each VM has.
      for (const queryKey of [agentKeys.all, vmKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
