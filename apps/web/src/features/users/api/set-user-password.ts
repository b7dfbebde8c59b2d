import { useMutation } from '@tanstack/react-query';
import type { UserPasswordSet } from '@rota/contract';
import { api } from '../../../lib/http';
import { USER_BASE } from './paths';

/**
 * PUT update/password `{users_id, password, confirm_password, password_change_required}` → 204:
 * an administrator sets another user's password; that user's sessions end.
 */
export function setUserPassword(body: UserPasswordSet, successMessage: string): Promise<void> {
  return api.put<void>(`${USER_BASE}/update/password`, body, { successMessage });
}

export function useSetUserPassword(successMessage: string) {
  return useMutation({
    mutationFn: (body: UserPasswordSet) => setUserPassword(body, successMessage),
  });
}
