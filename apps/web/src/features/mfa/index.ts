import { lazy } from 'react';

/**
 * What other features may use of two-step verification (lint: no reaching into a feature's
 * files). Nothing here loads the feature's strings or screens: the sign-in page imports this,
 * and its chunk must stay small, so the sign-in steps come in their own chunk when needed.
 */
export { mfaKeys } from './api/keys';
export { useResetMfa } from './api/reset-mfa';
export { MFA_PATH } from './paths';

/** After a password answered `mfa_required`: the code (or recovery code) step. */
export const MfaCodeStep = lazy(() => import('./components/mfa-code-step'));
/** After a password answered `enrolment_required`: set the factor up, then go in. */
export const MfaEnrolStep = lazy(() => import('./components/mfa-enrol-step'));
export type { MfaStepProps } from './components/mfa-code-step';
