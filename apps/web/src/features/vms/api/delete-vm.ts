import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { schedulingKeys } from '../../schedulings';
import { vmKeys } from './keys';
import { VM_BASE } from './paths';

/** POST delete `{id}` → 202; 409 `vm_in_use` (field `id`) while agents are on it. */
export function deleteVm(id: number): Promise<{ message: string }> {
  return api.post(`${VM_BASE}/delete`, { id });
}

export function useDeleteVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVm,
    onSuccess: () => {
      // The VM also left the schedulings that ran on it.
      for (const queryKey of [vmKeys.all, schedulingKeys.lists()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
