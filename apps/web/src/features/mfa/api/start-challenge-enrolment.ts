import type { MfaEnrolment } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { SIGN_IN_MFA_BASE } from './paths';

/** POST enrol/start `{challenge}`: a sign-in that must set up the factor before it gets a token. */
export function startChallengeEnrolment(challenge: string): Promise<MfaEnrolment> {
  return plainApi.post<MfaEnrolment>(`${SIGN_IN_MFA_BASE}/enrol/start`, { challenge });
}
