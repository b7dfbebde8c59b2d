import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http';
import { profileKeys } from './keys';
import { PROFILE_BASE } from './paths';

/** POST delete `{id}` → 202; 409 `profile_in_use` while memberships hold it. */
export function deleteProfile(id: number): Promise<{ message: string }> {
  return api.post(`${PROFILE_BASE}/delete`, { id });
}

export function useDeleteProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProfile,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
