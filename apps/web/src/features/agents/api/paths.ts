/** Agents base, under the client's `/api`. */
export const AGENT_BASE = '/rota/node/api/v1';
