import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { profileKeys } from '../../profiles';
import { userKeys } from './keys';
import { USER_BASE } from './paths';

/** PUT update `{id, ...changes}` → 204; `avatar: null` removes the picture. */
export function updateUser(body: UserUpdate): Promise<void> {
  return api.put<void>(`${USER_BASE}/update`, body);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: () => {
      // Profiles count their users; the header shows the signed-in user's name and picture.
      for (const queryKey of [userKeys.all, profileKeys.all, authKeys.me()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
