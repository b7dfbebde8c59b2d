/** The signed-in user's own sessions, in the auth module that owns them. */
export const SESSIONS_BASE = '/user/api/auth/v1/sessions';
