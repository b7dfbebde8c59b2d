/** Environments base, under the client's `/api`. */
export const ENVIRONMENT_BASE = '/rota/env/api/v1';
