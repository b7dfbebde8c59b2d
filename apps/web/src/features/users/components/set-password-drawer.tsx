import { PasswordInput, Text } from '@mantine/core';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { userPasswordSetSchema, type User } from '@rota/contract';
import { FormDrawer } from '../../../components/form-drawer';
import { SwitchField } from '../../../components/switch-field';
import { fieldError } from '../../../lib/form-errors';
import { localizeMessage } from '../../../lib/i18n';
import { useSetUserPassword } from '../api/set-user-password';
import '../i18n';

type SetPasswordDrawerProps = {
  opened: boolean;
  onClose: () => void;
  user: User | null;
};

/** "Definir senha": an administrator sets another user's password (userPasswordSetSchema). */
export function SetPasswordDrawer({ opened, onClose, user }: SetPasswordDrawerProps) {
  const { t } = useTranslation('users');
  const setPassword = useSetUserPassword(localizeMessage('password_set'));
  const fullName = user ? `${user.name} ${user.last_name}`.trim() : '';
  return (
    <FormDrawer
      opened={opened && !!user}
      onClose={onClose}
      title={t('password.title', { name: fullName })}
      schema={userPasswordSetSchema}
      defaultValues={{
        users_id: user?.users_id ?? 0,
        password: '',
        confirm_password: '',
        password_change_required: true,
      }}
      onSubmit={(values) => setPassword.mutateAsync(values)}
    >
      {(form) => (
        <>
          <Text size="sm" c="dimmed">
            {t('password.description')}
          </Text>
          <PasswordInput
            label={t('form.password')}
            description={t('form.passwordHint')}
            withAsterisk
            data-autofocus
            autoComplete="new-password"
            error={fieldError(form.formState.errors.password)}
            {...form.register('password')}
          />
          <PasswordInput
            label={t('form.confirmPassword')}
            withAsterisk
            autoComplete="new-password"
            error={fieldError(form.formState.errors.confirm_password)}
            {...form.register('confirm_password')}
          />
          <Controller
            control={form.control}
            name="password_change_required"
            render={({ field }) => (
              <SwitchField
                label={t('form.passwordChangeRequired')}
                hint={t('form.passwordChangeRequiredHint')}
                checked={field.value ?? true}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                onBlur={field.onBlur}
                name={field.name}
                ref={field.ref}
              />
            )}
          />
        </>
      )}
    </FormDrawer>
  );
}
