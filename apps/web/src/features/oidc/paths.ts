/** Where the OpenID Connect callback sends an account that no mapping gives any client. */
export const NO_ACCESS_PATH = '/login/no-access';
