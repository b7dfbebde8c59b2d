import type { MessageResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

/** Revokes the token server-side; sign-out goes on locally whatever this answers. */
export function logout(): Promise<MessageResponse> {
  return plainApi.post<MessageResponse>(`${AUTH_BASE}/logout`);
}
