import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Alert, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys, type AlertListBody } from './keys';
import { ALERT_BASE } from './paths';

export type { AlertListBody };
export type AlertSort = NonNullable<AlertListBody['sort']>;

/** The columns `index` sorts by (alertListQuerySchema). */
export const ALERT_SORTS = ['name', 'created_at'] as const satisfies readonly AlertSort[];

/** POST index → `{data, meta}`; search runs over the name; filters `active`, `channel_type`. */
export function fetchAlerts(body: AlertListBody): Promise<ListResponse<Alert>> {
  return api.post<ListResponse<Alert>>(`${ALERT_BASE}/index`, body);
}

export function alertsQueryOptions(body: AlertListBody) {
  return queryOptions({
    queryKey: alertKeys.list(body),
    queryFn: () => fetchAlerts(body),
    placeholderData: keepPreviousData,
  });
}
