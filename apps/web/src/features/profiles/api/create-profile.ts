import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileCreate } from '@rota/contract';
import { api } from '../../../lib/http';
import { profileKeys } from './keys';
import { PROFILE_BASE } from './paths';

/** POST create `{name, permissions}` → 201 `{message, data}`; 409 on a taken name. */
export function createProfile(body: ProfileCreate): Promise<{ message: string; data: Profile }> {
  return api.post(`${PROFILE_BASE}/create`, body);
}

export function useCreateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProfile,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  });
}
