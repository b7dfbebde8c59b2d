import { useEffect } from 'react';
import { Alert, Button, Group, Loader, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { TIMINGS, resetPasswordSchema, type ResetPassword } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { i18n } from '../../../lib/i18n';
import { errorText } from '../../../lib/http';
import { RECOVER_PASSWORD_PATH, SIGN_IN_PATH } from '../../../lib/paths';
import { checkCodeQueryOptions } from '../api/check-code';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from '../components/auth-card';

/** The link from the recovery mail lands here with `?code=`. */
export default function ChangePasswordPage() {
  const [searchParams] = useSearchParams();
  const code = searchParams.get('code')?.trim() ?? '';
  if (!code) return <BackToRecover message={i18n.t('messages:code_invalid')} />;
  // Keyed by the code, so a second link opened in this tab starts over.
  return <CheckedReset key={code} code={code} />;
}

function CheckedReset({ code }: { code: string }) {
  const { t } = useTranslation();
  const check = useQuery(checkCodeQueryOptions(code));
  if (check.isError) return <BackToRecover message={errorText(check.error)} />;
  if (check.isPending) {
    return (
      <AuthCard title={t('changePassword.title')}>
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">{t('changePassword.checking')}</Text>
        </Group>
      </AuthCard>
    );
  }
  return <ResetForm code={code} />;
}

/** An unusable code sends the user back to ask for a new one, saying why. */
function BackToRecover({ message }: { message: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    notifications.show({
      // One id: StrictMode's double effect must not stack two identical notices.
      id: 'reset-code-invalid',
      color: 'red',
      title: i18n.t('changePassword.codeInvalidTitle'),
      message,
      autoClose: TIMINGS.errorPopupMs,
      withCloseButton: true,
    });
    void navigate(RECOVER_PASSWORD_PATH, { replace: true });
  }, [message, navigate]);
  return null;
}

function ResetForm({ code }: { code: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({
    resolver: zodResolver(resetPasswordSchema),
    // The reset sends `code, password`: the password is asked once (its eye shows what was typed).
    defaultValues: { code, password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: ResetPassword) {
    try {
      const answer = await resetPassword(values);
      notifications.show({
        color: 'teal',
        title: t('changePassword.successTitle'),
        message: answer.message,
        autoClose: TIMINGS.successToastMs,
        withCloseButton: true,
      });
      await navigate(SIGN_IN_PATH, { replace: true });
    } catch (error) {
      // A rule on the new password is fixable here; anything else (the code expired meanwhile)
      // means starting over.
      if (applyFieldErrors(error, ['password'], form.setError)) return;
      notifications.show({
        color: 'red',
        title: t('changePassword.errorTitle'),
        message: errorText(error),
        autoClose: TIMINGS.errorPopupMs,
        withCloseButton: true,
      });
      await navigate(RECOVER_PASSWORD_PATH, { replace: true });
    }
  }

  return (
    <AuthCard title={t('changePassword.title')}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          {errors.code ? (
            <Alert color="red" variant="light">
              {fieldError(errors.code)}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('changePassword.password')}
            description={t('changePassword.hint')}
            autoComplete="new-password"
            error={fieldError(errors.password)}
            {...form.register('password')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            {t('changePassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
