import { useEffect, useMemo } from 'react';
import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { AVATAR_MAX_BYTES, AVATAR_MEDIA_TYPES } from '@rota/contract';
import { fieldError } from '../../../lib/form-errors';
import { useFormat } from '../../../lib/format';
import { avatarIssue, type UserFormOutput, type UserFormValues } from './user-form';
import '../i18n';

/** A picked file as an address the preview can show; jsdom and old browsers have none. */
function usePreview(file: File | null): string | null {
  const url = useMemo(
    () => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

type AvatarFieldProps = {
  form: UseFormReturn<UserFormValues, unknown, UserFormOutput>;
  /** The picture the user has now (edit), if any. */
  current: string | null;
  /** Names the preview ("Ana Souza"): initials when there is no picture. */
  fullName: string;
};

/**
 * The user's picture: a preview, "choose a picture" (PNG, JPEG, WebP or GIF up to 1 MB, checked
 * here as the server does) and "remove". The file is uploaded after the user is saved.
 */
export function AvatarField({ form, current, fullName }: AvatarFieldProps) {
  const { t } = useTranslation('users');
  const format = useFormat();
  const [file, removed] = useWatch({ control: form.control, name: ['avatar', 'remove_avatar'] });
  const preview = usePreview(file);
  const shown = preview ?? (removed ? null : current);
  const error = fieldError(form.formState.errors.avatar);

  function pick(next: File | null) {
    if (!next) return;
    const issue = avatarIssue(next);
    if (issue) {
      form.setError('avatar', { type: 'validate', message: issue });
      return;
    }
    form.clearErrors('avatar');
    form.setValue('avatar', next, { shouldDirty: true });
    form.setValue('remove_avatar', false, { shouldDirty: true });
  }

  function clear() {
    form.clearErrors('avatar');
    form.setValue('avatar', null, { shouldDirty: true });
    form.setValue('remove_avatar', true, { shouldDirty: true });
  }

  return (
    <Stack gap={6}>
      <Group gap="md" wrap="nowrap" align="center">
        <Avatar
          src={shown}
          name={fullName || undefined}
          alt={t('avatar.alt')}
          color="initials"
          radius="xl"
          size={64}
        />
        <Stack gap={6} miw={0}>
          <Group gap="xs">
            <FileButton onChange={pick} accept={AVATAR_MEDIA_TYPES.join(',')}>
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  size="xs"
                  leftSection={<IconPhotoUp size={14} aria-hidden />}
                >
                  {t('avatar.choose')}
                </Button>
              )}
            </FileButton>
            {shown ? (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={clear}
              >
                {t('avatar.remove')}
              </Button>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {file
              ? t('avatar.picked', { name: file.name, size: format.bytes(file.size) })
              : t('avatar.hint', { size: format.bytes(AVATAR_MAX_BYTES) })}
          </Text>
        </Stack>
      </Group>
      {error ? (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
