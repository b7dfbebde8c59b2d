/** Activity base, under the client's `/api`. */
export const ACTIVITY_BASE = '/rota/activity/api/v1';
