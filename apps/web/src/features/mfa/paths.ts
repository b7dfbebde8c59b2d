/** Two-step verification, reached from the user menu: any signed-in user, no permission. */
export const MFA_PATH = '/account/two-step';
