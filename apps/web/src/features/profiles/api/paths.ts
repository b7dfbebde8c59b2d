/** Profiles base, under the client's `/api`. */
export const PROFILE_BASE = '/user/profile/api/v1';
