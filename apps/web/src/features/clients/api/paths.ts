/** Clients base (platform administrators only), under the client's `/api`. */
export const CLIENT_BASE = '/rota/client/api/v1';
