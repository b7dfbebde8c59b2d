import { queryOptions } from '@tanstack/react-query';
import type { VmCount } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys } from './keys';
import { VM_BASE } from './paths';

/** POST count → `{total, active, inactive}` (active: an agent of the VM heard from lately). */
export function fetchVmCount(): Promise<VmCount> {
  return api.post<VmCount>(`${VM_BASE}/count`);
}

export function vmCountQueryOptions() {
  return queryOptions({ queryKey: vmKeys.count(), queryFn: fetchVmCount });
}
