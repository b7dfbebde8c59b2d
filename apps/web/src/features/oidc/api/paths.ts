/** Identity-api: the public single sign-on endpoints, under the client's `/api`. */
export const OIDC_AUTH_BASE = '/user/api/auth/v1/oidc';
/** Group mappings (platform administrators only). */
export const OIDC_MAPPING_BASE = '/user/oidc/mapping/api/v1';
