/** Parameters base, under the client's `/api`. */
export const PARAMETER_BASE = '/rota/parameter/api/v1';
