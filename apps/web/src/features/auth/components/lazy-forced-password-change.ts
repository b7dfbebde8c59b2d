import { lazy } from 'react';

/**
 * The shell shows the forced password change rarely, yet it brought the form library, the
 * resolver and the password schema into every signed-in page's first download: it loads on first
 * use instead. The shell renders it inside a Suspense boundary.
 */
export const ForcedPasswordChange = lazy(() =>
  import('./forced-password-change').then((module) => ({ default: module.ForcedPasswordChange })),
);
