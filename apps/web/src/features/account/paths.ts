/** "My account", reached from the user menu: any signed-in user, no permission. */
export const ACCOUNT_PATH = '/account';
