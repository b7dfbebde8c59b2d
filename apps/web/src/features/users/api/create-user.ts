import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User, UserCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { profileKeys } from '../../profiles';
import { userKeys } from './keys';
import { USER_BASE } from './paths';

/** POST create → 201 `{message, data}`; 409 `duplicate_email` / `duplicate_access` on the field. */
export function createUser(body: UserCreate): Promise<{ message: string; data: User }> {
  return api.post(`${USER_BASE}/create`, body);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => {
      // Profiles count their users.
      for (const queryKey of [userKeys.all, profileKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
