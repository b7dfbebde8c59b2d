/** The log streams page (syslog to the security team), under Configuration. */
export const LOG_STREAMS_PATH = '/log-stream';
