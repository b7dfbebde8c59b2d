/** Agents base, under the client's `/api`. */
export const AGENT_BASE = '/rota/node/api/v1';
/** The packaged agent's downloads, under the client's `/api`. */
export const AGENT_DOWNLOAD_BASE = '/rota/agent/download/api/v1';
