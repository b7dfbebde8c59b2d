/** Maintenance windows' base, under the client's `/api`. */
export const MAINTENANCE_BASE = '/rota/maintenance/api/v1';
