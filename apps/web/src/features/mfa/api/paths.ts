/** The signed-in user's second factor. */
export const MFA_BASE = '/user/mfa/api/v1';
/** The public sign-in steps after the password; the challenge authenticates them. */
export const SIGN_IN_MFA_BASE = '/user/api/auth/v1/mfa';
