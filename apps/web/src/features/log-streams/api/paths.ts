/** The client's syslog destinations, under the client's `/api`. */
export const LOG_STREAM_BASE = '/rota/log-stream/api/v1';
