import {
  Avatar,
  Button,
  FileButton,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import {
  AVATAR_MAX_BYTES,
  AVATAR_MEDIA_TYPES,
  accountUpdateSchema,
  type AccountUpdate,
  type MeResponse,
} from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { formSchema, type FormValues } from '../../../lib/form-schema';
import { useFormat } from '../../../lib/format';
import { showErrorPopup, showSuccessPopup } from '../../../lib/notify';
import { useUploadAvatar } from '../../users';
import { useUpdateAccount } from '../api/update-account';
import { useAccountTranslation } from '../i18n';

const profileSchema = formSchema(accountUpdateSchema, (values: ProfileValues) => ({
  name: values.name,
  last_name: values.last_name,
}));
type ProfileValues = Required<Pick<FormValues<typeof accountUpdateSchema>, 'name' | 'last_name'>>;
const FIELDS = ['name', 'last_name'] as const;

/** One's own name and picture: the picture saves when picked, the names with "Save". */
export function ProfileForm({ user }: { user: MeResponse }) {
  const t = useAccountTranslation();
  const format = useFormat();
  const update = useUpdateAccount();
  const upload = useUploadAvatar();
  const removal = useUpdateAccount({ quietSuccess: true });
  const form = useForm({
    resolver: zodResolver(profileSchema),
    defaultValues: { name: user.name, last_name: user.last_name } as ProfileValues,
  });
  const { errors, isSubmitting } = form.formState;
  const fullName = `${user.name} ${user.last_name}`.trim();

  async function onSubmit(values: AccountUpdate) {
    try {
      const { data } = await update.mutateAsync(values);
      form.reset({ name: data.name, last_name: data.last_name });
    } catch (error) {
      applyFieldErrors(error, FIELDS, form.setError);
    }
  }

  function pick(file: File | null) {
    if (!file) return;
    const size = format.bytes(AVATAR_MAX_BYTES);
    if (file.size > AVATAR_MAX_BYTES) return showErrorPopup(t('avatar.tooLarge', { size }));
    if (!(AVATAR_MEDIA_TYPES as readonly string[]).includes(file.type))
      return showErrorPopup(t('avatar.format'));
    upload.mutate({ file }, { onSuccess: () => showSuccessPopup(t('avatar.saved')) });
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4" mb="md">
        {t('profile.title')}
      </Title>
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="center">
          <Avatar
            src={user.avatar}
            name={fullName}
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
                    loading={upload.isPending}
                    leftSection={<IconPhotoUp size={14} aria-hidden />}
                  >
                    {t('avatar.choose')}
                  </Button>
                )}
              </FileButton>
              {user.avatar ? (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  loading={removal.isPending}
                  leftSection={<IconTrash size={14} aria-hidden />}
                  onClick={() =>
                    removal.mutate(
                      { avatar: null },
                      { onSuccess: () => showSuccessPopup(t('avatar.removed')) },
                    )
                  }
                >
                  {t('avatar.remove')}
                </Button>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              {t('avatar.hint', { size: format.bytes(AVATAR_MAX_BYTES) })}
            </Text>
          </Stack>
        </Group>
        <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
          <Stack gap="md">
            {/* Side by side from `sm`, each full width on a phone. */}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={t('profile.name')}
                autoComplete="given-name"
                error={fieldError(errors.name)}
                {...form.register('name')}
              />
              <TextInput
                label={t('profile.lastName')}
                autoComplete="family-name"
                error={fieldError(errors.last_name)}
                {...form.register('last_name')}
              />
            </SimpleGrid>
            <TextInput label={t('profile.email')} value={user.email} readOnly />
            <Group justify="flex-end">
              <Button type="submit" loading={isSubmitting}>
                {t('profile.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
