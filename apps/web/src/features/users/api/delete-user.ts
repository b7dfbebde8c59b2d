import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { profileKeys } from '../../profiles';
import { userKeys } from './keys';
import { USER_BASE } from './paths';

/**
 * POST delete `{id}` → 202. The account goes when the reader manages every client of the user;
 * otherwise the user only leaves the selected client (409 `last_membership` for their last one).
 */
export function deleteUser(id: number): Promise<{ message: string }> {
  return api.post(`${USER_BASE}/delete`, { id });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => {
      for (const queryKey of [userKeys.all, profileKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
