/** Run triggers base, under the client's `/api`. */
export const TRIGGER_BASE = '/rota/trigger/api/v1';
