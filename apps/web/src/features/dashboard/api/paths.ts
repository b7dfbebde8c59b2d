/** Dashboard base, under the client's `/api`. */
export const DASHBOARD_BASE = '/rota/dashboard/api/v1';
