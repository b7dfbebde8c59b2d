import type { MfaVerify, SessionResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { SIGN_IN_MFA_BASE } from './paths';

/** POST `{challenge, code}` → the session a password sign-in answers; a wrong code is a 400 on `code`. */
export function verifyChallenge(body: MfaVerify): Promise<SessionResponse> {
  return plainApi.post<SessionResponse>(SIGN_IN_MFA_BASE, body);
}
