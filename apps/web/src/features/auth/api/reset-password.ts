import type { MessageResponse, ResetPassword } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

export function resetPassword(body: ResetPassword): Promise<MessageResponse> {
  return plainApi.post<MessageResponse>(`${AUTH_BASE}/reset-password`, body);
}
