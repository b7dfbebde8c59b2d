/** The personal API keys page, reached from the user menu (any signed-in user). */
export const API_KEYS_PATH = '/apikey';
