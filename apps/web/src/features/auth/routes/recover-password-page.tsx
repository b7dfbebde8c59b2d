import { useState } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { recoverPasswordSchema, type RecoverPassword } from '@rota/contract';
import { applyFieldErrors, fieldError } from '../../../lib/form-errors';
import { errorText } from '../../../lib/http';
import { recoverPassword } from '../api/recover-password';
import { AuthCard } from '../components/auth-card';
import { BackToSignInLink, FailureAlert, SentCard } from '../components/auth-feedback';

export default function RecoverPasswordPage() {
  const { t } = useTranslation();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(recoverPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  async function onSubmit(values: RecoverPassword) {
    setFailure(null);
    try {
      const answer = await recoverPassword(values);
      setSent(answer.message);
    } catch (error) {
      if (!applyFieldErrors(error, ['email'], form.setError)) setFailure(errorText(error));
    }
  }

  if (sent !== null) {
    return (
      <SentCard
        title={t('recoverPassword.title')}
        heading={t('recoverPassword.sentTitle')}
        message={sent}
      />
    );
  }

  return (
    <AuthCard title={t('recoverPassword.title')} description={t('recoverPassword.description')}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onSubmit)(event)}>
        <Stack gap="md">
          <FailureAlert title={t('recoverPassword.errorTitle')}>{failure}</FailureAlert>
          <TextInput
            type="email"
            label={t('recoverPassword.email')}
            autoComplete="email"
            error={fieldError(errors.email)}
            {...form.register('email')}
          />
          <Button type="submit" fullWidth loading={isSubmitting}>
            {t('recoverPassword.submit')}
          </Button>
          <BackToSignInLink />
        </Stack>
      </form>
    </AuthCard>
  );
}
