import { queryOptions } from '@tanstack/react-query';
import type { Vm } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys } from './keys';
import { VM_BASE } from './paths';

/** POST show `{id}` → `{data}`; quiet: a VM's name in a select is not worth a popup. */
export async function fetchVm(id: number): Promise<Vm> {
  const answer = await api.post<{ data: Vm }>(`${VM_BASE}/show`, { id }, { quiet: true });
  return answer.data;
}

export function vmQueryOptions(id: number) {
  return queryOptions({
    queryKey: vmKeys.detail(id),
    queryFn: () => fetchVm(id),
    staleTime: 30_000,
  });
}
