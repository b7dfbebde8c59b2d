import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceStart, MaintenanceTarget, MessageResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { maintenanceKeys } from './keys';
import { MAINTENANCE_BASE } from './paths';

/** POST start (cluster: platform administrators; a VM: AGENTES.UPDATE) → 201 `{message, data}`. */
export function startMaintenance(body: MaintenanceStart): Promise<MessageResponse> {
  return api.post<MessageResponse>(`${MAINTENANCE_BASE}/start`, body);
}

/** POST end `{scope, rota_vms_id?}` (as start) → 202 `{message}`. */
export function endMaintenance(body: MaintenanceTarget): Promise<MessageResponse> {
  return api.post<MessageResponse>(`${MAINTENANCE_BASE}/end`, body);
}

function useMaintenanceMutation<T>(fn: (body: T) => Promise<MessageResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: maintenanceKeys.all }),
  });
}

export const useStartMaintenance = () => useMaintenanceMutation(startMaintenance);
export const useEndMaintenance = () => useMaintenanceMutation(endMaintenance);
