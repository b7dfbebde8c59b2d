import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AVATAR_FILE_FIELD, type AvatarUploadResponse } from '@rota/contract';
import { api } from '../../../lib/http';
import { authKeys } from '../../auth';
import { userKeys } from './keys';
import { USER_BASE } from './paths';

export type AvatarUpload = {
  /** Whose picture; left out, one's own. */
  id?: number;
  file: File;
};

/** The multipart body: the `id` text part before the image, so it is read first. */
export function avatarFormData({ id, file }: AvatarUpload): FormData {
  const form = new FormData();
  if (id !== undefined) form.append('id', String(id));
  form.append(AVATAR_FILE_FIELD, file, file.name);
  return form;
}

/**
 * POST avatar (multipart) → 200 `{message, data: {users_id, avatar}}`. No popup of its own: it
 * follows a create or an update that already announced the save.
 */
export function uploadAvatar(upload: AvatarUpload): Promise<AvatarUploadResponse> {
  return api.upload<AvatarUploadResponse>(`${USER_BASE}/avatar`, avatarFormData(upload), {
    quietSuccess: true,
  });
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () => {
      for (const queryKey of [userKeys.all, authKeys.me()]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
