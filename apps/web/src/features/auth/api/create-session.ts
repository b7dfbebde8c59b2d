import type { SessionCreate, SessionResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

/** POST session: the plain client, so a wrong password rejects without the 401 popup dance. */
export function createSession(body: SessionCreate): Promise<SessionResponse> {
  return plainApi.post<SessionResponse>(`${AUTH_BASE}/session`, body);
}
