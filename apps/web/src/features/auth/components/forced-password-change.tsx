import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordUpdateSchema, type PasswordUpdate } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { localizeMessage } from '../../../lib/i18n';
import { updatePassword } from '../../users';
import { authKeys } from '../api/keys';

const FIELDS = ['current_password', 'password', 'confirm_password'] as const;

/**
 * Shown instead of every page while `password_change_required` holds; the server refuses
 * everything else with 403 until then, so there is nothing else to show.
 */
export function ForcedPasswordChange() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(passwordUpdateSchema),
    defaultValues: { current_password: '', password: '', confirm_password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: PasswordUpdate) {
    try {
      await updatePassword(values, localizeMessage('password_changed'));
      await queryClient.invalidateQueries({ queryKey: authKeys.me() });
    } catch (error) {
      // Field errors go under the fields; anything else was already shown by the API client.
      applyFieldErrors(error, FIELDS, form.setError);
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} maw={480} mx="auto" mt="lg">
      <Title order={1} fz="h3">
        {t('forcedPassword.title')}
      </Title>
      <Text c="dimmed" size="sm" mt={4} mb="md">
        {t('forcedPassword.description')}
      </Text>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          <PasswordInput
            label={t('forcedPassword.currentPassword')}
            autoComplete="current-password"
            error={fieldError(errors.current_password)}
            {...form.register('current_password')}
          />
          <PasswordInput
            label={t('forcedPassword.password')}
            description={t('changePassword.hint')}
            autoComplete="new-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <PasswordInput
            label={t('forcedPassword.confirmPassword')}
            autoComplete="new-password"
            error={fieldError(errors.confirm_password)}
            {...form.register('confirm_password')}
          />
          <Button type="submit" loading={isSubmitting}>
            {t('forcedPassword.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
