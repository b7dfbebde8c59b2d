import type { PasswordUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { USER_BASE } from './paths';

/** PUT update/password → 204; a wrong current password comes back as a 400 field error. */
export function updatePassword(body: PasswordUpdate, successMessage: string): Promise<void> {
  return api.put<void>(`${USER_BASE}/update/password`, body, { successMessage });
}
