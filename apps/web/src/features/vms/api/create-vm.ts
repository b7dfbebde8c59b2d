import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Vm, VmCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys } from './keys';
import { VM_BASE } from './paths';

/** POST create → 201 `{message, data}`; 409 `duplicate_vm_name` on `name`. */
export function createVm(body: VmCreate): Promise<{ message: string; data: Vm }> {
  return api.post(`${VM_BASE}/create`, body);
}

export function useCreateVm() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createVm,
    // Lists and the count.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: vmKeys.all }),
  });
}
