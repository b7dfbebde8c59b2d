import type { MfaChallengeResponse, SessionCreate, SessionResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

/**
 * POST session: the plain client, so a wrong password rejects without the 401 popup dance. An
 * account with a second factor gets a challenge instead of the token.
 */
export function createSession(
  body: SessionCreate,
): Promise<SessionResponse | MfaChallengeResponse> {
  return plainApi.post<SessionResponse | MfaChallengeResponse>(`${AUTH_BASE}/session`, body);
}
