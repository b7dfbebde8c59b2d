/** Status items base ("configuration items"), under the client's `/api`. */
export const STATUS_ITEM_BASE = '/rota/status/item/api/v1';
