import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VmUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { agentKeys } from '../../agents';
import { schedulingKeys } from '../../schedulings';
import { vmKeys } from './keys';
import { VM_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204; 409 `duplicate_vm_name` on `name`. */
export function updateVm(body: VmUpdate): Promise<void> {
  return api.put<void>(`${VM_BASE}/update`, body);
}

export function useUpdateVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVm,
    onSuccess: () => {
      // Agents and schedulings show the VM's name.
      for (const queryKey of [vmKeys.all, agentKeys.lists(), schedulingKeys.lists()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
