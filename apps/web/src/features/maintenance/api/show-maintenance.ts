import { queryOptions } from '@tanstack/react-query';
import type { MaintenanceShowResponse, MaintenanceWindow } from '@rota/contract';
import { api } from '../../../lib/http';
import { maintenanceKeys } from './keys';
import { MAINTENANCE_BASE } from './paths';

/** A window started elsewhere (another operator, another server) shows within this long. */
const REFRESH_MS = 30_000;

/** POST show (any signed-in user) → the active windows over the selected client. */
export function fetchActiveMaintenance(): Promise<MaintenanceWindow[]> {
  return api
    .post<MaintenanceShowResponse>(`${MAINTENANCE_BASE}/show`, {}, { quiet: true })
    .then((answer) => answer.data);
}

export function activeMaintenanceQueryOptions() {
  return queryOptions({
    queryKey: maintenanceKeys.active(),
    queryFn: fetchActiveMaintenance,
    refetchInterval: REFRESH_MS,
  });
}
