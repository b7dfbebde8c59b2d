/** Auth base, under the client's `/api`. */
export const AUTH_BASE = '/user/api/auth/v1';
