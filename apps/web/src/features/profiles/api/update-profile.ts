import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileUpdate } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { userKeys } from '../../users';
import { profileKeys } from './keys';
import { PROFILE_BASE } from './paths';

/** PUT update `{id, name?, permissions?}` → 204. */
export function updateProfile(body: ProfileUpdate): Promise<void> {
  return api.put<void>(`${PROFILE_BASE}/update`, body);
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: () => {
      // Users show their profile's name; the signed-in user may hold this very profile, and
      // then the menu and the buttons on screen follow its new permissions.
      for (const queryKey of [profileKeys.all, userKeys.lists(), authKeys.me()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
