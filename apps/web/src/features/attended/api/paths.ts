/** Attended runs' base, under the client's `/api`. */
export const ATTENDED_BASE = '/rota/attended/api/v1';
