import type { AccessRequestCreate, MessageResponse } from '@rota/contract';
import { plainApi } from '../../../lib/http';
import { AUTH_BASE } from './paths';

/** Anyone may ask; the answer does not reveal whether the email is known. */
export function requestAccess(body: AccessRequestCreate): Promise<MessageResponse> {
  return plainApi.post<MessageResponse>(`${AUTH_BASE}/request-access`, body);
}
