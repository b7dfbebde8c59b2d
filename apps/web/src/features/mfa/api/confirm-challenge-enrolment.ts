import type { SessionResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { SIGN_IN_MFA_BASE } from './paths';

export type EnrolledSession = SessionResponse & { recovery_codes: string[] };

/** POST enrol/confirm `{challenge, code}` → the session plus the recovery codes, shown once. */
export function confirmChallengeEnrolment(body: {
  challenge: string;
  code: string;
}): Promise<EnrolledSession> {
  return plainApi.post<EnrolledSession>(`${SIGN_IN_MFA_BASE}/enrol/confirm`, body);
}
