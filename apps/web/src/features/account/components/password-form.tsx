import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { passwordUpdateSchema, type PasswordUpdate } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { localizeMessage } from '../../../lib/i18n';
import { updatePassword } from '../../users';
import { useAccountTranslation } from '../i18n';

const FIELDS = ['current_password', 'password', 'confirm_password'] as const;
const EMPTY = { current_password: '', password: '', confirm_password: '' };

/**
 * One's own password: the current one is asked again. The server ends the other sessions and
 * revokes every API key of the user, so the form says so before the change, not after.
 */
export function PasswordForm() {
  const t = useAccountTranslation();
  const form = useForm({ resolver: zodResolver(passwordUpdateSchema), defaultValues: EMPTY });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: PasswordUpdate) {
    try {
      await updatePassword(values, localizeMessage('password_changed'));
      form.reset(EMPTY);
    } catch (error) {
      applyFieldErrors(error, FIELDS, form.setError);
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Title order={2} fz="h4">
        {t('password.title')}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {t('password.hint')}
      </Text>
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} mb="md">
        {t('password.warning')}
      </Alert>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          <PasswordInput
            label={t('password.current')}
            autoComplete="current-password"
            error={fieldError(errors.current_password)}
            {...form.register('current_password')}
          />
          <PasswordInput
            label={t('password.new')}
            autoComplete="new-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <PasswordInput
            label={t('password.confirm')}
            autoComplete="new-password"
            error={fieldError(errors.confirm_password)}
            {...form.register('confirm_password')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={isSubmitting}>
              {t('password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
