/** Alert rules, their delivery log and the header's bell, under the client's `/api`. */
export const ALERT_BASE = '/rota/alert/api/v1';
export const ALERT_DELIVERY_BASE = '/rota/alert/delivery/api/v1';
export const ALERT_FEED_BASE = '/rota/alert/feed/api/v1';
