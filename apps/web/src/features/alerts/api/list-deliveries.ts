import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AlertDelivery, ListResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { alertKeys, type AlertDeliveryListBody } from './keys';
import { ALERT_DELIVERY_BASE } from './paths';

export type { AlertDeliveryListBody };

/** How often an open log asks again: retries are due in seconds, and no event says so. */
export const DELIVERY_REFRESH_MS = 5_000;

/** POST index `{rota_alerts_id}` → `{data, meta}`, newest first. */
export function fetchAlertDeliveries(
  body: AlertDeliveryListBody,
): Promise<ListResponse<AlertDelivery>> {
  return api.post<ListResponse<AlertDelivery>>(`${ALERT_DELIVERY_BASE}/index`, body);
}

export function alertDeliveriesQueryOptions(body: AlertDeliveryListBody) {
  return queryOptions({
    queryKey: alertKeys.deliveryList(body),
    queryFn: () => fetchAlertDeliveries(body),
    placeholderData: keepPreviousData,
    refetchInterval: DELIVERY_REFRESH_MS,
  });
}
