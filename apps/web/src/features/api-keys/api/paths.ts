/** Personal API keys, under the user API (`/api/user/...`). */
export const API_KEY_BASE = '/user/apikey/api/v1';
