import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ListResponse, Vm } from '@rota/contract';
import { api } from '../../../lib/http';
import { vmKeys, type VmListBody } from './keys';
import { VM_BASE } from './paths';

export type { VmListBody };
export type VmSort = NonNullable<VmListBody['sort']>;

/** The columns `index` sorts by (vmListQuerySchema). */
export const VM_SORTS = [
  'name',
  'hostname',
  'os',
  'created_at',
] as const satisfies readonly VmSort[];

/** POST index → `{data, meta}`; search runs over name, hostname and label. */
export function fetchVms(body: VmListBody): Promise<ListResponse<Vm>> {
  return api.post<ListResponse<Vm>>(`${VM_BASE}/index`, body);
}

export function vmsQueryOptions(body: VmListBody) {
  return queryOptions({
    queryKey: vmKeys.list(body),
    queryFn: () => fetchVms(body),
    // The previous page stays on screen (dimmed) while the next one loads.
    placeholderData: keepPreviousData,
  });
}
