import type { alertDeliveryListQuerySchema, alertListQuerySchema } from '@rota/contract';
import type { z } from 'zod';

export type AlertListBody = z.input<typeof alertListQuerySchema>;
export type AlertDeliveryListBody = z.input<typeof alertDeliveryListQuerySchema>;

/** Query keys of the alerts area, so no component writes one inline. */
export const alertKeys = {
  all: ['alerts'] as const,
  lists: () => [...alertKeys.all, 'list'] as const,
  list: (body: AlertListBody) => [...alertKeys.lists(), body] as const,
  /** Every delivery log (a test sent, a live alert event). */
  deliveries: () => [...alertKeys.all, 'deliveries'] as const,
  deliveryList: (body: AlertDeliveryListBody) => [...alertKeys.deliveries(), body] as const,
  /** The header's bell: the latest events and the unread count. */
  feed: () => [...alertKeys.all, 'feed'] as const,
};
