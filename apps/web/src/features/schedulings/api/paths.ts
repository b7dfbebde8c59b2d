/** Schedulings base, under the client's `/api`. */
export const SCHEDULING_BASE = '/rota/scheduling/api/v1';
