/** The user's own sessions, reached from the user menu: any signed-in user, no permission. */
export const SESSIONS_PATH = '/account/sessions';
