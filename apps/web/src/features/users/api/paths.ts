/** Users base, under the client's `/api`. */
export const USER_BASE = '/user/api/v1';

/** Access requests, reviewed by platform administrators. */
export const ACCESS_REQUEST_BASE = '/user/access-request/api/v1';
