/** DESIGN §4 users base, under the client's `/api`. */
export const USER_BASE = '/user/api/v1';
