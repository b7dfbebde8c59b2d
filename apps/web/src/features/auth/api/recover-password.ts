import type { MessageResponse, RecoverPassword } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

/** The answer is the same whether or not the email has an account. */
export function recoverPassword(body: RecoverPassword): Promise<MessageResponse> {
  return plainApi.post<MessageResponse>(`${AUTH_BASE}/recover-password`, body);
}
